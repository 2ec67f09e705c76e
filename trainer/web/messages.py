"""Error messages in words for the error pages (translated)."""
from __future__ import annotations

from flask import current_app
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from trainer.web.inputs import BadParameter


def error_message(error: HTTPException) -> str:
    """What went wrong, in the user's language, without internals."""
    if isinstance(error, BadParameter):
        return str(error.description)
    if isinstance(error, CSRFError):
        return _("This form has expired or did not come from this site. Reload the page and try again.")
    code = error.code or 500
    messages = {
        400: _("The request could not be understood."),
        403: _("You may not do that."),
        404: _("There is nothing here, or it is not yours to see."),
        405: _("That action is not available here."),
        413: _("The upload is too large (the limit is %(kb)d KB).", kb=upload_limit_kb()),
        429: _("Too many attempts. Wait a minute and try again."),
    }
    return messages.get(code, _("Something went wrong on our side. Please try again."))


def upload_limit_kb() -> int:
    """The uploaded file's size cap (`UPLOAD_LIMIT`) in KB."""
    return int(current_app.config["UPLOAD_LIMIT"]) // 1024
