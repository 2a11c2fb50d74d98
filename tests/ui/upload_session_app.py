"""A one-file Streamlit app for tests/ui/test_upload_cache.py: ``?mode=upload`` parses a CSV through the app's
upload cache; every run appends the cache's upload entries and their sessions to ``$UPLOAD_APP_OUT``."""
import gc
import json
import os

import numpy as np
import streamlit as st

from svmviz.ui import compute, uploads

mode = st.query_params.get("mode", "check")
if mode == "upload":
    X = np.random.default_rng(0).normal(size=(300, 3))
    content = ("a,b,c,label\n" + "\n".join(f"{r[0]},{r[1]},{r[2]},{'x' if r[0] > 0 else 'y'}" for r in X)).encode()
    st.write(uploads.parsed_csv(content, None, True).X.shape)
gc.collect()
with open(os.environ["UPLOAD_APP_OUT"], "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"mode": mode, "sessions": {k: len(v) for k, v in uploads._upload_users.items()},
                         "store": [k for k in compute._store().data if k.startswith("upload:")]}) + "\n")
