"""Plotly figures in the sphinx-gallery examples, embedded as interactive HTML that works offline.

An example shows a figure with ``fig.show()``. The renderer registered here (plotly's public
``ExternalRenderer`` interface) only queues the figure; after each code block sphinx-gallery calls
the scraper, which writes every queued figure into the page as ``plotly.io.to_html(...,
include_plotlyjs=False)``. plotly.js itself is served once per page from ``_static/plotly.min.js``,
written by ``conf.py`` from the installed plotly (``plotly.offline.get_plotlyjs()``), so the built
site needs no network — unlike the CDN script tag of plotly's own gallery renderer.
"""
from __future__ import annotations

import plotly.io as pio
from plotly.io.base_renderers import ExternalRenderer

RENDERER = "svmviz_gallery"
_QUEUE: list[dict] = []


class _QueueRenderer(ExternalRenderer):
    def render(self, fig_dict):
        _QUEUE.append(fig_dict)


pio.renderers[RENDERER] = _QueueRenderer()


def reset_renderer(gallery_conf, fname):
    """Before each example: figures shown go to the queue (an example cannot open a browser)."""
    pio.renderers.default = RENDERER
    _QUEUE.clear()


def scraper(block, block_vars, gallery_conf):
    """The figures shown in this code block, as raw HTML directives (sphinx-gallery's scraper API)."""
    rst = ""
    for fig_dict in _QUEUE:
        html = pio.to_html(fig_dict, include_plotlyjs=False, full_html=False, default_width="100%",
                           default_height=480, validate=False)
        rst += "\n.. raw:: html\n\n" + "".join(f"    {line}\n" for line in html.splitlines()) + "\n"
    _QUEUE.clear()
    return rst


def _get_sg_image_scraper():
    """Lets ``image_scrapers = ("sg_plotly",)`` name this module (sphinx-gallery's convention)."""
    return scraper
