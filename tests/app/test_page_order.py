"""One order of pages: the sidebar's navigation lists the pages in the home page's tour order."""
from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from svmviz.ui import frame
from tests.apptest_utils import ROOT, assert_clean


def test_sidebar_navigation_and_home_tour_list_the_pages_in_one_order():
    at = AppTest.from_file(f"{ROOT}/app.py", default_timeout=60).run()
    assert_clean(at)
    # what run_app handed to st.navigation, in order (the home page first)
    navigation = [p.title for p in at.session_state["_svmviz_page_objects"].values()]
    tour = [re.match(r"\*\*\d+\. (.+?)\*\*", link.proto.label).group(1) for link in at.get("page_link")]
    assert navigation[0] == "Home"
    assert navigation[1:] == tour == [spec.title for spec in frame.tour()]
    assert sorted(tour) == sorted(spec.title for spec in frame.PAGES)
