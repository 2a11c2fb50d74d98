"""A one-file Streamlit app for tests/ui/test_session_release.py: an upload control whose file the session
also keeps a copy of (as the app's data sidebar does), and, when ``SVMVIZ_TEST_STATE_FREED`` names a
file, an object in the session's state that writes that file when it is freed."""
import os
import weakref

import streamlit as st

from svmviz.ui import uploads


class _Sentinel:
    pass


def main() -> None:  # a function: the script module's globals hold none of the session's objects
    uploads.start_release_watch()
    up = st.file_uploader("file")
    if up is not None:
        st.session_state["copy"] = up.getvalue()  # what the app's sidebar keeps of an upload
        freed = os.environ.get("SVMVIZ_TEST_STATE_FREED")
        if freed and "sentinel" not in st.session_state:
            sentinel = st.session_state["sentinel"] = _Sentinel()
            weakref.finalize(sentinel, lambda: open(freed, "w").close())
        st.write(f"uploaded {len(up.getvalue())} bytes")


main()
