"""QR codes: an SVG for the page, text for the terminal."""
from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from markupsafe import Markup


def svg(data: str) -> Markup:
    """An inline SVG QR code (the data is our own URL, so the markup is safe to inline)."""
    img = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2, box_size=10)
    text = img.to_string(encoding="unicode")
    return Markup(text[text.index("<svg"):])


def terminal(data: str) -> str:
    qr = qrcode.QRCode(border=1)
    qr.add_data(data)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()
