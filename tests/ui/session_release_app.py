"""A one-file Streamlit app for tests/ui/test_session_release.py: an upload control whose file the session
also keeps a copy of (as the app's data sidebar does)."""
import streamlit as st

from svmviz.ui import uploads

uploads.start_release_watch()
up = st.file_uploader("file")
if up is not None:
    st.session_state["copy"] = up.getvalue()  # what the app's sidebar keeps of an upload
    st.write(f"uploaded {len(up.getvalue())} bytes")
