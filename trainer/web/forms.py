"""The app's forms (Flask-WTF: validation, and the CSRF token every POST form carries)."""
from __future__ import annotations

import unicodedata

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, Form, HiddenField, IntegerField, PasswordField, SelectChoice, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, InputRequired, Length, NumberRange, Regexp, ValidationError
from zxcvbn import zxcvbn

from trainer.web.display import GOUJI_PRESET_LABELS, preset_choices
from trainer.web.library import GOUJI_CHOICE, RULE_PRESETS
from trainer.web.models import NAME_KEY_LENGTH, name_key

NAME_LENGTH = 40
"""The longest user name (characters, once NFC-normalised)."""
GUESS_CHECK_LENGTH = 64
"""How much of a password zxcvbn looks at: its time grows steeply with length (a random 64-character
password takes about 0.1 s, 200 characters 20 s), and the first 64 characters of a strong password
are strong."""
MIN_PASSWORD_SCORE = 2
"""zxcvbn's score a new password needs: 2 is "somewhat guessable", about 10^8 guesses or more."""


def clean_name(name: str | None) -> str:
    """A user name as typed, made as stored and shown: surrounding spaces gone, Unicode NFC (a
    filter of the name fields, so that `e` + a combining accent is the letter `é`)."""
    return unicodedata.normalize("NFC", (name or "").strip())


def password_problem(password: str, name: str) -> str | None:
    """Why `password` may not be `name`'s new password (in words), or None: it may not be the name,
    and zxcvbn must not find it easy to guess (common passwords, words, names, keyboard runs, dates,
    repeats, and the name itself with a little added)."""
    if name and name_key(password) == name_key(name):
        return _("The password may not be your name.")
    if zxcvbn(password[:GUESS_CHECK_LENGTH], user_inputs=[name] if name else [])["score"] < MIN_PASSWORD_SCORE:
        return _("This password is too easy to guess (a common password, a word, a name or a keyboard "
                 "pattern). Choose a longer, less usual one.")
    return None


class LoginForm(FlaskForm):
    """Log in with a name and a password."""

    username = StringField(_l("Name"), filters=[clean_name], validators=[DataRequired(), Length(max=NAME_LENGTH)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])
    next = HiddenField()


class NewPasswordForm(FlaskForm):
    """A form choosing a password (8 to 200 characters, typed twice) for the account named by
    `owner_name()`: not the name, not easy to guess (`password_problem`)."""

    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(_l("Repeat the password"), validators=[
        DataRequired(), EqualTo("password", message=_l("The two passwords differ."))])

    def owner_name(self) -> str:
        """The name of the account the password is for."""
        raise NotImplementedError

    def validate_password(self, field: Field) -> None:
        """Not the name, not easy to guess."""
        problem = password_problem(field.data, self.owner_name())
        if problem:
            raise ValidationError(problem)


class RegisterForm(NewPasswordForm):
    """A new account: a name of letters, digits, '.', '-' and '_', and a password hard to guess."""

    username = StringField(_l("Name"), filters=[clean_name], validators=[
        DataRequired(), Length(min=2, max=NAME_LENGTH),
        Regexp(r"^[\w.\-]+$", message=_l("Use letters, digits, '.', '-' or '_' only."))])
    next = HiddenField()

    def owner_name(self) -> str:
        """The name being registered."""
        return self.username.data

    def validate_username(self, field: Field) -> None:
        """The name's key fits (NFKC makes a few characters longer)."""
        if len(name_key(field.data)) > NAME_KEY_LENGTH:
            raise ValidationError(_("That name is too long."))


class PasswordForm(NewPasswordForm):
    """A new password for the signed-in user, given the current one."""

    current = PasswordField(_l("Current password"), validators=[DataRequired(), Length(max=200)])

    def __init__(self, user_name: str, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.user_name = user_name
        self.password.label.text = _("New password")

    def owner_name(self) -> str:
        """The signed-in user's name."""
        return self.user_name


class GenerateForm(FlaskForm):
    """New deals played by bots."""

    rules = SelectField(_l("Rules"), default="standard", choices=preset_choices(RULE_PRESETS) + [
        SelectChoice(GOUJI_CHOICE + name, label) for name, label in GOUJI_PRESET_LABELS.items()])
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

    game = SelectField(_l("Game"), default="", choices=[
        ANY, SelectChoice("shengji", _l("升级 (Shengji)")), SelectChoice("gouji", _l("够级 (Gouji)"))])
    rules = SelectField(_l("Rules"), choices=[ANY, *preset_choices(RULE_PRESETS)], default="")
    decks = SelectField(_l("Decks"), default="", choices=[
        ANY, SelectChoice("1", _l("1 deck (40分)")), SelectChoice("2", _l("2 decks (80分)")),
        SelectChoice("3", _l("3 decks (泰坦尼克)")), SelectChoice("4", _l("4 decks"))])
    trump = SelectField(_l("Trump (主)"), default="", choices=[
        ANY, SelectChoice("S", "♠"), SelectChoice("H", "♥"), SelectChoice("C", "♣"), SelectChoice("D", "♦"),
        SelectChoice("none", _l("no trump (无主)"))])
    complete = SelectField(_l("Played out"), default="", choices=[
        ANY, SelectChoice("yes", _l("complete")), SelectChoice("no", _l("unfinished"))])
    whose = SelectField(_l("Whose"), default="", choices=[
        SelectChoice("", _l("all")), SelectChoice("mine", _l("mine")), SelectChoice("shared", _l("starter library"))])
