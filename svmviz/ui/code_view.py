"""The "Python code of this view" panel: each page's view as a script and a notebook (:mod:`svmviz.codegen`).

A page calls one function of this module beside its downloads, with the settings it computed from;
the panel shows the script (copyable), and offers it as a ``.py`` file and as a Jupyter notebook.
"""
from __future__ import annotations

import streamlit as st

from svmviz import codegen
from svmviz.ui.data_sidebar import UPLOAD_CHOICE
from svmviz.ui.session import shared_choice

TITLE = "Python code of this view"


def data_source(ds, key: str) -> codegen.DataSource:
    """Where the page's data set ``ds`` comes from: the sidebar of the page with data-set key ``key``
    (an uploaded file's name and the loader's options, or the generator's)."""
    shared = shared_choice()
    if st.session_state.get(f"{key}_data") == UPLOAD_CHOICE and "upload" in shared:
        return codegen.data_source(ds, file_name=shared["upload"][0],
                                   label_column=st.session_state.get(f"{key}_labelcol"),
                                   standardize=bool(st.session_state.get(f"{key}_std", True)),
                                   missing=st.session_state.get(f"{key}_missing", "drop"))
    return codegen.data_source(ds)


def panel(script: codegen.Script, *, page: str) -> None:
    """The expander: the script, and its downloads as ``svmviz_<page>.py`` and ``svmviz_<page>.ipynb``."""
    with st.expander(TITLE):
        files = ", ".join(f"`{f}`" for f in script.files)
        st.caption("A script that draws this page's figures again from the settings on screen, with the public "
                   "API of svmviz" + (f"; it reads {files} (the page's download of it)." if files else "."))
        text = script.python()
        st.code(text, language="python")
        c1, c2 = st.columns(2)
        with c1:
            st.download_button("Download the script (.py)", text.encode(), file_name=f"svmviz_{page}.py",
                               mime="text/x-python", key=f"{page}_code_py", on_click="ignore")
        with c2:
            st.download_button("Download the notebook (.ipynb)", script.notebook_json().encode(),
                               file_name=f"svmviz_{page}.ipynb", mime="application/x-ipynb+json",
                               key=f"{page}_code_ipynb", on_click="ignore")


def plan_panel(plan, ds, key: str, *, page: str, open_tab: str | None = None) -> None:
    """The panel of a page whose view is a plan (:mod:`svmviz.views`): the plan the page executed, written
    by :func:`svmviz.codegen.plan_script`; ``key`` the page's data-set sidebar key, ``open_tab`` the open
    tab (its figures shown first). A plan that does not read ``ds`` (a section on the paper's own data)
    has no data cell."""
    data = data_source(ds, key) if "ds" in plan.inputs else None
    panel(codegen.plan_script(plan, data, open_tab=open_tab), page=page)


def studies(results, plan) -> None:
    """The panel of the Criteria studies page: the study's spec file, the command that runs it, and the
    page's plan (:mod:`svmviz.views.studies`, which loads the folder the command writes)."""
    from svmviz.studies import spec_to_toml
    from svmviz.views.studies import study_command

    name = results.spec.name
    with st.expander("Spec file and command of this study"):
        toml = spec_to_toml(results.spec)
        st.code(toml, language="toml")
        st.download_button("Download the spec file (.toml)", toml.encode(), file_name=f"{name}.toml",
                           mime="application/toml", key="studies_code_toml", on_click="ignore")
        st.caption("Run it from a shell, beside the spec file (every core, or a cluster with --scheduler):")
        st.code(study_command(name), language="bash")
    script = codegen.plan_script(plan, None)
    panel(script._replace(files=(f"{name}.toml",)), page="studies")
