"""The app's forms (Flask-WTF: validation, and the CSRF token every POST form carries)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Form, HiddenField, IntegerField, PasswordField, SelectChoice, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, InputRequired, Length, NumberRange, Regexp

from trainer.web.library import RULE_PRESETS


class LoginForm(FlaskForm):
    """Log in with a name and a password."""

    username = StringField(_l("Name"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])
    next = HiddenField()


class RegisterForm(FlaskForm):
    """A new account."""

    username = StringField(_l("Name"), validators=[
        DataRequired(), Length(min=2, max=40),
        Regexp(r"^[\w.\-]+$", message=_l("Use letters, digits, '.', '-' or '_' only."))])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(_l("Repeat the password"), validators=[
        DataRequired(), EqualTo("password", message=_l("The two passwords differ."))])
    next = HiddenField()


class GenerateForm(FlaskForm):
    """New deals played by bots."""

    rules = SelectField(_l("Rules"), choices=[SelectChoice(name) for name in RULE_PRESETS], default="standard")
    count = IntegerField(_l("How many"), default=4, validators=[InputRequired(), NumberRange(min=1, max=20)])


class ImportForm(FlaskForm):
    """An uploaded deal record (or several) or a Botzone match log."""

    kind = SelectField(_l("File"), default="record", choices=[
        SelectChoice("record", _l("Deal record (jipai-deal/1 JSON)")),
        SelectChoice("botzone", _l("Botzone log (双升 / Tractor)"))])
    file = FileField(_l("Upload"), validators=[FileRequired(_l("Choose a file to upload."))])


ANY = SelectChoice("", _l("any"))


class FilterForm(Form):
    """The deal list's filters (a GET form: no CSRF; an unknown value counts as "any")."""

    rules = SelectField(_l("Rules"), choices=[ANY] + [SelectChoice(name) for name in RULE_PRESETS], default="")
    trump = SelectField(_l("Trump (主)"), default="", choices=[
        ANY, SelectChoice("S", "♠"), SelectChoice("H", "♥"), SelectChoice("C", "♣"), SelectChoice("D", "♦"),
        SelectChoice("none", _l("no trump (无主)"))])
    complete = SelectField(_l("Played out"), default="", choices=[
        ANY, SelectChoice("yes", _l("complete")), SelectChoice("no", _l("unfinished"))])
    whose = SelectField(_l("Whose"), default="", choices=[
        SelectChoice("", _l("all")), SelectChoice("mine", _l("mine")), SelectChoice("shared", _l("starter library"))])
