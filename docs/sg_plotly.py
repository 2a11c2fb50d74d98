"""Plotly figures in the sphinx-gallery examples, embedded as interactive HTML that works offline.

An example shows a figure with ``fig.show()``. The renderer registered here (plotly's public
``ExternalRenderer`` interface) only queues the figure; after each code block sphinx-gallery calls
the scraper, which writes every queued figure into the page as ``plotly.io.to_html(...,
include_plotlyjs=False)``. plotly.js itself is served once per page from ``_static/plotly.min.js``,
written by ``conf.py`` from the installed plotly (``plotly.offline.get_plotlyjs()``), so the built
site needs no network — unlike the CDN script tag of plotly's own gallery renderer.

Thumbnails. The first figure an example shows is also drawn as a small PNG (:func:`thumbnail`: its
heat maps, contours, lines and markers of the first subplot, with Pillow, no browser) at the path
sphinx-gallery gives for the example's first image, so each example's thumbnail in the gallery is its
own figure.
"""
from __future__ import annotations

import base64

import numpy as np
import plotly.io as pio
from plotly.io.base_renderers import ExternalRenderer

RENDERER = "svmviz_gallery"
_QUEUE: list[dict] = []
_THUMB = {"done": False}  # the current example's thumbnail is written


class _QueueRenderer(ExternalRenderer):
    def render(self, fig_dict):
        _QUEUE.append(fig_dict)


pio.renderers[RENDERER] = _QueueRenderer()


def reset_renderer(gallery_conf, fname):
    """Before each example: figures shown go to the queue (an example cannot open a browser)."""
    pio.renderers.default = RENDERER
    _QUEUE.clear()
    _THUMB["done"] = False


#: plotly's default trace colours, in its order
_COLOURS = ("#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692", "#B6E880")
#: the heat maps' colour scale (viridis at five stops)
_SCALE = np.array([(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)], dtype=float)
THUMB_SIZE = (400, 280)


def _numbers(values) -> np.ndarray:
    """A trace's array as floats: a list, or plotly's typed array ``{"dtype", "bdata", "shape"}`` (base64)."""
    if isinstance(values, dict) and "bdata" in values:
        a = np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values.get("dtype", "f8")))
        shape = values.get("shape")
        if shape is not None:
            a = a.reshape([int(v) for v in str(shape).split(",")])
        return a.astype(float)
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        return np.empty(0)


def _first_subplot(trace) -> bool:
    return trace.get("xaxis", "x") == "x" and trace.get("yaxis", "y") == "y"


def _colour(trace, k: int):
    for key in ("line", "marker"):
        c = (trace.get(key) or {}).get("color")
        if isinstance(c, str) and c.startswith("#") and len(c) == 7:
            return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
    c = _COLOURS[k % len(_COLOURS)]
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def thumbnail(fig_dict, path, size=THUMB_SIZE) -> bool:
    """Draw the first subplot of a plotly figure (its dict) as a PNG at ``path`` (:func:`thumbnail_image`).
    Returns False, writing nothing, when the figure has no numeric trace to draw (a table, say)."""
    img = thumbnail_image(fig_dict, size)
    if img is None:
        return False
    img.save(path)
    return True


def thumbnail_image(fig_dict, size=THUMB_SIZE):
    """The first subplot of a plotly figure (its dict) as a Pillow image, or None when it has no
    numeric trace to draw.

    Heat maps and contours (``z`` on ``x``, ``y``) are painted with a viridis scale; scatter traces as
    lines or markers in their colours; bars as bars (grouped side by side) and box traces as their points,
    a category axis at 0, 1, 2, … in the order its labels appear.
    """
    from PIL import Image, ImageDraw

    traces = [t for t in fig_dict.get("data", []) if _first_subplot(t)] or list(fig_dict.get("data", []))
    grids, curves, bars = [], [], []
    categories: dict = {}  # a category axis' labels, at 0, 1, 2, … in order of appearance

    def positions(values) -> np.ndarray:
        numbers = _numbers(values)
        if numbers.size or not isinstance(values, (list, tuple)) or not values:
            return numbers
        return np.array([categories.setdefault(str(v), len(categories)) for v in values], dtype=float)

    for k, t in enumerate(traces):
        if t.get("type") == "bar":
            x, y = positions(t.get("x", [])), _numbers(t.get("y", []))
            if x.ndim == 1 and x.shape == y.shape and x.size:
                n_bars = sum(1 for u in traces if u.get("type") == "bar")
                j = sum(1 for u in traces[:k] if u.get("type") == "bar")
                bars.append((x - 0.4 + 0.8 * j / n_bars, 0.8 / n_bars, y, _colour(t, k)))
            continue
        if t.get("type") == "box":
            y = _numbers(t.get("y", []))
            if y.ndim == 1 and y.size:
                x = np.full(y.shape, float(categories.setdefault(str(t.get("name", k)), len(categories))))
                curves.append((x, y, np.isfinite(y), False, _colour(t, k)))
            continue
        z = _numbers(t.get("z", []))
        if t.get("type") in ("heatmap", "contour") and z.ndim == 2 and z.size:
            x = _numbers(t.get("x", np.arange(z.shape[1])))
            y = _numbers(t.get("y", np.arange(z.shape[0])))
            if x.size == z.shape[1] and y.size == z.shape[0]:
                grids.append((x, y, z))
        elif t.get("type", "scatter") in ("scatter", "scattergl"):
            x, y = positions(t.get("x", [])), _numbers(t.get("y", []))
            if x.ndim == 1 and x.shape == y.shape and x.size:
                ok = np.isfinite(x) & np.isfinite(y)
                lines = "lines" in (t.get("mode") or ("lines" if x.size > 20 else "markers"))
                curves.append((x, y, ok, lines, _colour(t, k)))
    xs = [g[0] for g in grids] + [c[0][c[2]] for c in curves] + [np.r_[b[0], b[0] + b[1]] for b in bars]
    ys = [g[1] for g in grids] + [c[1][c[2]] for c in curves] + [np.r_[0.0, b[2][np.isfinite(b[2])]] for b in bars]
    xs, ys = [v for v in xs if v.size], [v for v in ys if v.size]
    if not xs:
        return None
    x0, x1 = min(v.min() for v in xs), max(v.max() for v in xs)
    y0, y1 = min(v.min() for v in ys), max(v.max() for v in ys)
    W, H = size
    pad = 8

    def px(x, y):
        u = pad + (W - 2 * pad) * (x - x0) / ((x1 - x0) or 1.0)
        v = H - pad - (H - 2 * pad) * (y - y0) / ((y1 - y0) or 1.0)
        return u, v

    img = Image.new("RGB", size, "white")
    for x, y, z in grids:
        zf = z[np.isfinite(z)]
        lo, hi = (zf.min(), zf.max()) if zf.size else (0.0, 1.0)
        t = np.clip((np.nan_to_num(z, nan=lo) - lo) / ((hi - lo) or 1.0), 0, 1) * (len(_SCALE) - 1)
        i = np.minimum(t.astype(int), len(_SCALE) - 2)
        rgb = _SCALE[i] + (t - i)[..., None] * (_SCALE[i + 1] - _SCALE[i])
        tile = Image.fromarray(np.flipud(rgb).astype(np.uint8), "RGB")
        (ua, va), (ub, vb) = px(x.min(), y.max()), px(x.max(), y.min())
        img.paste(tile.resize((max(1, int(ub - ua)), max(1, int(vb - va)))), (int(ua), int(va)))
    draw = ImageDraw.Draw(img)
    for left, width, heights, colour in bars:
        for x, h in zip(left, heights):
            if np.isfinite(h):
                (ua, va), (ub, vb) = px(x, max(h, 0.0)), px(x + width, min(h, 0.0))
                draw.rectangle((ua, va, max(ua, ub - 1), vb), fill=colour)
    for x, y, ok, lines, colour in curves:
        pts = [px(a, b) for a, b in zip(x[ok], y[ok])]
        if lines and len(pts) > 1:
            draw.line(pts, fill=colour, width=2)
        else:
            for u, v in pts:
                draw.ellipse((u - 2, v - 2, u + 2, v + 2), fill=colour)
    return img


def scraper(block, block_vars, gallery_conf):
    """The figures shown in this code block, as raw HTML directives (sphinx-gallery's scraper API);
    the example's first drawable figure also as the PNG of its thumbnail. An image path is taken from
    sphinx-gallery's iterator only when a PNG is written there: it fails on a path left without a file."""
    if not _THUMB["done"]:
        for fig_dict in _QUEUE:
            img = thumbnail_image(fig_dict)
            if img is not None:
                img.save(next(iter(block_vars["image_path_iterator"])))
                _THUMB["done"] = True
                break
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
