"""gunicorn settings for companion (read automatically from the working directory): the same
settings `companion serve` uses, from companion/serving.py."""
import os

from companion.serving import SETTINGS, on_exit, on_starting, post_fork, post_worker_init  # noqa: F401  (gunicorn reads the hooks here)

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
globals().update(SETTINGS)
