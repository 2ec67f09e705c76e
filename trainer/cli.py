"""The `trainer` command: deal verification, display and tracking, and the rules referee."""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from trainer import __version__
from trainer.engine.cards import Card, parse_cards, pretty_cards
from trainer.engine.errors import JipaiError, MalformedError, shown
from trainer.engine.seats import Seat
from trainer.json_input import JSONInputError, read_json
from trainer.records import (DealRecord, Position, Replay, known_id, parse_record, read_record_file, record_id, replay,
                             state_at, verify_summary)
from trainer.gouji import records as gouji_records
from trainer.gouji.records import GoujiPosition, GoujiRecord, is_gouji, parse_gouji_record

# Each subcommand imports what only it uses inside its own function (the bots, the trackers, the
# referees, the signal conventions, the web app), so `deal verify` starts with the records alone.

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` in ASCII digits (no sign, space or other digits)."""
    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit() and len(text) <= 20 and low <= int(text) <= high):
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not {shown(text)}")
        return int(text)
    return read


def _decimal(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a decimal number from `low` to `high` in ASCII (`0.8`, `5`, no sign or exponent)."""
    def read(text: str) -> float:
        whole, _dot, fraction = text.partition(".")
        if not (text.isascii() and len(text) <= 20 and whole.isdigit() and (fraction.isdigit() or not _dot)
                and low <= float(text) <= high):
            raise argparse.ArgumentTypeError(f"must be a number from {low:g} to {high:g}, not {shown(text)}")
        return float(text)
    return read


def _family_accuracy(text: str) -> tuple[str, float]:
    """An argparse type: `FAMILY=P`, a skill family (training.md §4) and a chance from 0 to 1."""
    from trainer.drills.families import ALL_FAMILIES

    family, equals, chance = text.partition("=")
    if not equals or family not in ALL_FAMILIES:
        raise argparse.ArgumentTypeError(f"must be FAMILY=P with FAMILY one of {', '.join(ALL_FAMILIES)}, "
                                         f"not {shown(text)}")
    try:
        return family, _decimal(0, 1)(chance)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{family}: {error}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trainer", description="Jipai 记牌: a card-counting trainer for 升级 / 拖拉机.")
    parser.add_argument("--version", action="version", version=f"trainer {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    deal = commands.add_parser("deal", help="work with deal records (jipai-deal/1)")
    deal_commands = deal.add_subparsers(dest="deal_command", required=True, metavar="SUBCOMMAND")
    verify = deal_commands.add_parser("verify", help="check records (升级 or 够级) against the rules; print tricks or "
                                                     "rounds, score, result")
    verify.add_argument("files", nargs="+", metavar="FILE")
    verify.add_argument("--json", action="store_true", help="print one JSON object per file")
    show = deal_commands.add_parser("show", help="print a deal as text, optionally from one seat up to a position")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--seat", help="show only what this seat (0–3; 0–5 in 够级) can see")
    show.add_argument("--at", help="stop at position T.K (after K plays of trick T), 0.0 or end; "
                                   "for 够级 R.K (after K actions of round R), #n or end")

    generate = deal_commands.add_parser("generate", help="bots play complete deals; one record file each")
    generate.add_argument("--game", choices=("shengji", "gouji"), default="shengji", help="升级 (default) or 够级")
    generate.add_argument("--rules", default="standard", help="a preset name or a JSON rules object")
    generate.add_argument("--seed", type=_number(0, 2**63 - 1), default=1,
                          help="the same seed gives byte-identical files")
    generate.add_argument("--count", type=_number(1, 100_000), default=10, help="how many deals (1–100000)")
    generate.add_argument("--out", default="deals", help="the folder to write to (created if missing)")
    generate.add_argument("--bots", choices=("heuristic", "random"), default="heuristic")
    generate.add_argument("--jobs", type=_number(1, 64), default=1, help="processes to play games in parallel (1–64)")
    generate.add_argument("--signals", metavar="SET",
                          help="heuristic bots follow this convention set (a name in drills/signals or a .toml file)")
    imports = deal_commands.add_parser("import", help="convert foreign logs into jipai-deal/1 records")
    imports.add_argument("--from", dest="source", required=True, choices=("botzone",), help="the log format")
    imports.add_argument("files", nargs="+", metavar="FILE")
    imports.add_argument("--out", default=".", help="the folder to write the records to")
    track = deal_commands.add_parser("track", help="what one seat can know at a position, as JSON (tracking.md; gouji.md §6)")
    track.add_argument("file", metavar="FILE")
    track.add_argument("--seat", required=True, help="the viewer's seat, 0–3 (够级: 0–5)")
    track.add_argument("--at", required=True, help="position T.K (after K plays of trick T; 够级: R.K, #n), 0.0 "
                                                   "or end")
    track.add_argument("--tier", type=_number(1, 2), default=1, help="2 adds the inference facts")
    track.add_argument("--throw", metavar="CARDS", help="with --tier 2: is throwing these cards (comma-separated, "
                                                        "in the seat's hand, one side suit) safe (training.md §2)")

    rules = commands.add_parser("rules", help="the rules referee")
    rules_commands = rules.add_subparsers(dest="rules_command", required=True, metavar="SUBCOMMAND")
    rules_commands.add_parser("check", help="answer JSON-lines rule questions on stdin (records.md referee)")

    signals = commands.add_parser("signals", help="signal conventions (信号牌): the referee and the convention sets")
    signals_commands = signals.add_subparsers(dest="signals_command", required=True, metavar="SUBCOMMAND")
    signals_commands.add_parser("check", help="answer JSON-lines signal questions on stdin (signals.md referee)")
    moments = signals_commands.add_parser("moments", help="list a deal's signal moments as JSON lines")
    moments.add_argument("files", nargs="+", metavar="FILE")
    moments.add_argument("--signals", metavar="SET", help="the convention set (default: the one the deal records, "
                                                           "else basic_89JQ)")
    listing = signals_commands.add_parser("list", help="load every convention file and print its sets")
    listing.add_argument("--dir", help="the folder of convention files (default: the shipped drills/signals)")

    drill = commands.add_parser("drill", help="what the drills ask (training.md §6)")
    drill_commands = drill.add_subparsers(dest="drill_command", required=True, metavar="SUBCOMMAND")
    sample = drill_commands.add_parser(
        "sample", help="play runs of drills on generated deals as the web app does; one JSON line per question",
        description="Generate N deals of each drill's rules (seed K, the bots of `deal generate`), play R runs of "
                    "each drill on each deal with the web app's checkpoint and question code, and print one JSON "
                    "object per question asked (docs/sample.md).")
    sample.add_argument("--drill", action="append", default=[], metavar="ID",
                        help="a drill id of drills/ (repeat for several)")
    sample.add_argument("--all", action="store_true", help="every curriculum drill of drills/")
    sample.add_argument("--deals", type=_number(1, 10_000), default=20, help="deals per drill's rules (1–10000)")
    sample.add_argument("--seed", type=_number(0, 2**63 - 1), default=1, help="the seed of the deals and the runs")
    sample.add_argument("--runs", type=_number(1, 100), default=1, help="runs of each drill on each deal (1–100)")
    sample.add_argument("--jobs", type=_number(1, 64), default=None,
                        help="processes to sample in (1–64; default: one per CPU); the output never depends on it")

    daily = commands.add_parser("daily", help="the daily session (training.md §4, §6)")
    daily_commands = daily.add_subparsers(dest="daily_command", required=True, metavar="SUBCOMMAND")
    simulate = daily_commands.add_parser(
        "simulate", help="play the web app's daily sessions as a simulated player; one JSON line per day",
        description="Run the web app's daily scheduler for a simulated player against a temporary database, with a "
                    "frozen clock from 2027-01-04 09:00 UTC moving one day per session; one JSON object per day "
                    "and a summary line (docs/daily.md).")
    simulate.add_argument("--days", type=_number(1, 366), default=14, help="sessions to play, one a day (1–366)")
    simulate.add_argument("--minutes", type=_number(1, 120), default=10, help="each session's budget (1–120)")
    simulate.add_argument("--answer-seconds", type=_decimal(0, 600), default=5.0, metavar="S",
                          help="seconds the player takes to answer (0–600; default 5)")
    simulate.add_argument("--accuracy", type=_decimal(0, 1), default=0.8, metavar="P",
                          help="the chance an answer is right (0–1; default 0.8)")
    simulate.add_argument("--skill-accuracy", action="append", default=[], type=_family_accuracy,
                          metavar="FAMILY=P", help="a family's own chance (repeat for several)")
    simulate.add_argument("--seed", type=_number(0, 2**63 - 1), default=1, help="the seed of the answers and items")

    serve = commands.add_parser("serve", help="run the web app (first start: database and starter deals)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=_number(1, 65535), default=5000, help="the port (default 5000)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 invalid record or play, 2 bad usage)."""
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        return _serve(args.host, args.port)
    if args.command == "rules" or args.command == "signals" and args.signals_command == "check":
        from trainer.referee import serve_lines

        ops = None
        if args.command == "signals":
            from trainer.signals.referee import OPS as ops
        # Bytes when stdin has them, so a line that is not UTF-8 is answered like any malformed line.
        for line in serve_lines(getattr(sys.stdin, "buffer", sys.stdin), ops):
            print(line, flush=True)
        return EXIT_OK
    if args.command == "signals" and args.signals_command == "moments":
        return _moments(args.files, args.signals)
    if args.command == "signals":
        return _list_conventions(args.dir)
    if args.command == "daily":
        return _simulate(args)
    if args.command == "drill":
        return _sample(args.drill, args.all, args.deals, args.seed, args.runs, args.jobs or os.cpu_count() or 1)
    if args.deal_command == "verify":
        return _verify(args.files, args.json)
    if args.deal_command == "generate":
        return _generate(args.rules, args.seed, args.count, args.out, args.bots, args.jobs, args.signals,
                         args.game)
    if args.deal_command == "import":
        return _import(args.files, args.out)
    if args.deal_command == "track":
        return _track(args.file, args.seat, args.at, args.tier, args.throw)
    return _show(args.file, args.seat, args.at)


def _moments(files: Sequence[str], signals_name: str | None) -> int:
    """Print every signal moment of each deal as one JSON line (`{"file", "id", …moment}`)."""
    from trainer.signals.conventions import find_convention
    from trainer.signals.moments import find_moments

    try:
        convention = find_convention(signals_name) if signals_name is not None else None
    except JipaiError as error:
        print(f"trainer: --signals: {error}", file=sys.stderr)
        return EXIT_USAGE
    failures: list[int] = []
    for path in files:
        record = _load(path)
        if isinstance(record, DealRecord):
            try:
                replay(record)
            except JipaiError as error:
                print(f"{_shown_path(path)}: {error}", file=sys.stderr)
                record = Unloaded(EXIT_INVALID, str(error), record.id)
        if isinstance(record, Unloaded):
            failures.append(record.status)
            continue
        for moment in find_moments(record, convention):
            print(json.dumps({"file": _shown_path(path), "id": record.id, **moment.to_json()}, ensure_ascii=False))
    return EXIT_USAGE if EXIT_USAGE in failures else EXIT_INVALID if failures else EXIT_OK


def _sample(ids: Sequence[str], every: bool, deals: int, seed: int, runs: int, jobs: int) -> int:
    """`drill sample`: one JSON line per question the drills ask (`trainer.drills.sample`)."""
    from trainer.drills.sample import curriculum, sample

    known = curriculum()
    if not every and not ids:
        print("trainer: name the drills to sample (--drill ID, repeatable) or --all", file=sys.stderr)
        return EXIT_USAGE
    unknown = [shown(name) for name in ids if name not in known]
    if unknown:
        print(f"trainer: unknown drill {', '.join(unknown)} (known: {', '.join(known)})", file=sys.stderr)
        return EXIT_USAGE
    chosen = list(known.values()) if every else [known[name] for name in dict.fromkeys(ids)]
    for line in sample(chosen, deals, seed, runs, jobs):
        print(json.dumps(line, ensure_ascii=False))
    return EXIT_OK


def _simulate(args: argparse.Namespace) -> int:
    """`daily simulate`: one JSON line per simulated day and a summary (`trainer.web.simulate`)."""
    from trainer.web.simulate import Player, simulate

    families = dict(args.skill_accuracy)
    if len(families) < len(args.skill_accuracy):
        twice = sorted({f for f, _p in args.skill_accuracy if [g for g, _q in args.skill_accuracy].count(f) > 1})
        print(f"trainer: --skill-accuracy: {', '.join(twice)} given twice", file=sys.stderr)
        return EXIT_USAGE
    player = Player(args.minutes, args.answer_seconds, args.accuracy, families)
    for line in simulate(args.days, player, args.seed):
        print(json.dumps(line, ensure_ascii=False), flush=True)
    return EXIT_OK


def _list_conventions(folder: str | None) -> int:
    """Print every convention set of `folder` (one line each); a malformed file is named, exit 1."""
    from trainer.signals.conventions import CONVENTIONS_DIR, load_conventions

    try:
        conventions = load_conventions(Path(folder) if folder else CONVENTIONS_DIR)
    except JipaiError as error:
        print(f"trainer: {error}", file=sys.stderr)
        return EXIT_INVALID
    for name, convention in conventions.items():
        print(f"{name}: {json.dumps(convention.to_json(), ensure_ascii=False)}")
    return EXIT_OK


def _shown_path(path: str) -> str:
    """A file name as it can be printed (bytes that were not UTF-8 become `\\xNN`)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


@dataclass(frozen=True, slots=True)
class Unloaded:
    """A record file that could not be loaded: the exit status, the reason, the record's id if known."""

    status: int
    error: str
    id: str | None = None


def _load(path: str) -> DealRecord | GoujiRecord | Unloaded:
    """Read and parse a record file (升级, or 够级 when it says `"game": "gouji"`); on failure say why on
    stderr and return an `Unloaded`."""
    data = None
    try:
        data = read_record_file(path)
        return parse_gouji_record(data) if is_gouji(data) else parse_record(data)
    except OSError as error:
        failed = Unloaded(EXIT_USAGE, f"cannot read: {error.strerror or error}")
    except JipaiError as error:
        failed = Unloaded(EXIT_INVALID, str(error), known_id(data))
    print(f"{_shown_path(path)}: {failed.error}", file=sys.stderr)
    return failed


def _generate(rules_text: str, seed: int, count: int, out: str, bots: str, jobs: int, signals_name: str | None,
              game: str) -> int:
    from trainer.bots.generate import generate_records, write_records
    from trainer.engine.rules import Rules
    from trainer.gouji.generate import generate_gouji_records
    from trainer.gouji.rules import GoujiRules
    from trainer.signals.conventions import find_convention

    try:
        spec = read_json(rules_text) if rules_text.lstrip().startswith("{") else rules_text
        rules = GoujiRules.parse(spec) if game == "gouji" else Rules.parse(spec)
    except JipaiError as error:
        print(f"trainer: --rules: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        signals = find_convention(signals_name) if signals_name is not None else None
    except JipaiError as error:
        print(f"trainer: --signals: {error}", file=sys.stderr)
        return EXIT_USAGE
    if signals is not None and (bots != "heuristic" or isinstance(rules, GoujiRules)):
        print("trainer: --signals: only the heuristic 升级 bots follow a convention set", file=sys.stderr)
        return EXIT_USAGE
    try:
        if isinstance(rules, GoujiRules):
            records = generate_gouji_records(rules, seed, count, bots, jobs)
        else:
            records = generate_records(rules, seed, count, bots, jobs, signals)
    except ValueError as error:
        print(f"trainer: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        paths = list(write_records(records, Path(out), seed))
    except OSError as error:
        print(f"trainer: cannot write to {_shown_path(out)}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    print(f"wrote {len(paths)} deals to {_shown_path(out)}")
    return EXIT_OK


def _import(files: Sequence[str], out: str) -> int:
    from trainer.bots.generate import record_text
    from trainer.imports.botzone import convert_log

    converted: list[tuple[str, list[dict]]] = []
    for path in files:
        try:
            data = read_json(Path(path).read_bytes())
        except OSError as error:
            print(f"trainer: {_shown_path(path)}: cannot read: {error.strerror or error}", file=sys.stderr)
            return EXIT_USAGE
        except UnicodeDecodeError:
            print(f"{_shown_path(path)}: not a JSON log: the file is not UTF-8 text", file=sys.stderr)
            return EXIT_INVALID
        except JSONInputError as error:
            print(f"{_shown_path(path)}: not a JSON log: {error}", file=sys.stderr)
            return EXIT_INVALID
        try:
            converted.append((path, convert_log(data)))
        except ValueError as error:
            print(f"{_shown_path(path)}: {error}", file=sys.stderr)
            return EXIT_INVALID
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, records in converted:
            for record in records:
                target = folder / f"{record_id(record)}.json"
                target.write_text(record_text(record), encoding="utf-8")
                print(f"{_shown_path(path)} → {_shown_path(str(target))}")
    except OSError as error:
        print(f"trainer: cannot write to {_shown_path(out)}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _verify(files: Sequence[str], as_json: bool) -> int:
    """Check every file; exit 2 if one could not be read, else 1 if one was invalid (decisions.md)."""
    failures: list[int] = []
    for path in files:
        record = _load(path)
        if not isinstance(record, Unloaded):
            try:
                rep = gouji_records.replay(record) if isinstance(record, GoujiRecord) else replay(record)
            except JipaiError as error:
                print(f"{_shown_path(path)}: {error}", file=sys.stderr)
                record = Unloaded(EXIT_INVALID, str(error), record.id)
        if isinstance(record, Unloaded):
            failures.append(record.status)
            if as_json:
                known = {"id": record.id} if record.id is not None else {}
                print(json.dumps({**known, "file": _shown_path(path), "error": record.error}, ensure_ascii=False))
        elif isinstance(rep, gouji_records.GoujiReplay):
            print(json.dumps(gouji_records.verify_summary(rep), ensure_ascii=False) if as_json
                  else gouji_records.verify_text(_shown_path(path), rep))
        elif as_json:
            print(json.dumps(verify_summary(rep), ensure_ascii=False))
        else:
            print(_verify_text(_shown_path(path), rep))
    return EXIT_USAGE if EXIT_USAGE in failures else EXIT_INVALID if failures else EXIT_OK


def _verify_text(path: str, rep: Replay) -> str:
    summary = verify_summary(rep)
    lines = [f"{path}: deal {summary['id']} is valid ({'complete' if rep.complete else 'unfinished'})"]
    for number, trick in enumerate(rep.tricks, start=1):
        note = " (failed throw)" if trick.failed_throw else ""
        state = "winning so far" if trick.partial else "wins"
        lines.append(f"  trick {number:2}: seat {trick.leader} leads{note}, seat {trick.winner} {state}, "
                     f"{trick.points} points")
    lines.append(f"  attackers won {summary['attackers_points']} points in tricks, penalties {summary['penalties']:+d}")
    if rep.result is not None:
        result = rep.result
        lines.append(f"  kitty {result.kitty_points} points × {result.kitty_multiplier}; "
                     f"attackers' score {result.attackers_score}")
        lines.append(f"  result: the {result.side} side is banker next, up {result.levels} "
                     f"level{'s' if result.levels != 1 else ''}; next banker seat {result.next_banker}")
    return "\n".join(lines)


def _open_at(path: str, seat_text: str | None, at_text: str | None, loaded: DealRecord | None = None
             ) -> tuple[DealRecord, int | None, Position] | int:
    """Load (unless `loaded`) and validate a record and read a seat and a position in it; an exit status
    on failure."""
    record = _load(path) if loaded is None else loaded
    if isinstance(record, Unloaded):
        return record.status
    if isinstance(record, GoujiRecord):
        print(f"trainer: {_shown_path(path)} is a 够级 record; this command reads 升级 records only", file=sys.stderr)
        return EXIT_USAGE
    try:
        seat = int(Seat.parse(seat_text)) if seat_text is not None else None
        position = Position.parse(at_text if at_text is not None else "end", record)
    except MalformedError as error:
        print(f"trainer: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        replay(record)
    except JipaiError as error:
        print(f"{_shown_path(path)}: {error}", file=sys.stderr)
        return EXIT_INVALID
    return record, seat, position


def _show_gouji(path: str, record: GoujiRecord, seat_text: str | None, at_text: str | None) -> int:
    """`deal show` for a 够级 record: validate, then print up to the position, from one seat if asked."""
    opened = _gouji_open_at(path, record, seat_text, at_text)
    if isinstance(opened, int):
        return opened
    print(gouji_records.show_text(record, opened[1], opened[0]))
    return EXIT_OK


def _gouji_open_at(path: str, record: GoujiRecord, seat_text: str | None, at_text: str | None
                   ) -> tuple[int | None, GoujiPosition] | int:
    """Read a seat and a position in a 够级 record and validate it; an exit status on failure."""
    try:
        seat = None
        if seat_text is not None:
            if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 2
                    and int(seat_text) < record.rules.players and str(int(seat_text)) == seat_text):
                raise MalformedError(f"a seat is a number from 0 to {record.rules.players - 1}, not {shown(seat_text)}")
            seat = int(seat_text)
        position = GoujiPosition.parse(at_text if at_text is not None else "end", record)
    except MalformedError as error:
        print(f"trainer: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        gouji_records.replay(record)
    except JipaiError as error:
        print(f"{_shown_path(path)}: {error}", file=sys.stderr)
        return EXIT_INVALID
    return seat, position


def _show(path: str, seat_text: str | None, at_text: str | None) -> int:
    record = _load(path)
    if isinstance(record, Unloaded):
        return record.status
    if isinstance(record, GoujiRecord):
        return _show_gouji(path, record, seat_text, at_text)
    opened = _open_at(path, seat_text, at_text)
    if isinstance(opened, int):
        return opened
    print(show_text(*opened[:1], opened[2], opened[1]))
    return EXIT_OK


def _track(path: str, seat_text: str, at_text: str, tier: int, throw: str | None = None) -> int:
    from trainer.tracking.decisions import throw_problem, throw_verdict
    from trainer.tracking.facts import facts_json
    from trainer.tracking.inference import Inference, infer_json
    from trainer.tracking.tracker import track

    if throw is not None and tier != 2:
        print("trainer: --throw needs --tier 2", file=sys.stderr)
        return EXIT_USAGE
    record = _load(path)
    if isinstance(record, Unloaded):
        return record.status
    if isinstance(record, GoujiRecord):
        if throw is not None:
            print("trainer: --throw is asked of 升级 deals, not 够级", file=sys.stderr)
            return EXIT_USAGE
        return _track_gouji(path, record, seat_text, at_text, tier)
    opened = _open_at(path, seat_text, at_text, record)
    if isinstance(opened, int):
        return opened
    record, seat, position = opened
    assert seat is not None
    snap = track(record, seat, position)
    cards: list[Card] = []
    if throw is not None:
        try:
            cards = parse_cards([token.strip() for token in throw.split(",") if token.strip()])
        except MalformedError as error:
            print(f"trainer: --throw: {error}", file=sys.stderr)
            return EXIT_USAGE
        problem = throw_problem(snap.mine, cards, record.ctx.suit_of)
        if problem is not None:
            print(f"trainer: --throw {shown(throw)}: {problem}", file=sys.stderr)
            return EXIT_USAGE
    facts = facts_json(snap, str(position))
    if tier == 2:
        facts["inference"] = infer_json(snap)
        if throw is not None:
            facts["throw"] = throw_verdict(Inference(snap), cards).to_json()
    print(json.dumps(facts, ensure_ascii=False))
    return EXIT_OK


def _track_gouji(path: str, record: GoujiRecord, seat_text: str, at_text: str, tier: int) -> int:
    """`deal track` for a 够级 record: the §6 facts of one seat at a position (tier 2 adds the inference)."""
    from trainer.gouji import facts as gouji_facts
    from trainer.gouji import inference as gouji_inference
    from trainer.gouji import tracker as gouji_tracker

    opened = _gouji_open_at(path, record, seat_text, at_text)
    if isinstance(opened, int):
        return opened
    seat, position = opened
    assert seat is not None
    snap = gouji_tracker.track(record, seat, position)
    facts = gouji_facts.facts_json(snap, str(position))
    if tier == 2:
        facts["inference"] = gouji_inference.infer_json(snap)
    print(json.dumps(facts, ensure_ascii=False))
    return EXIT_OK


def show_text(record: DealRecord, position: Position, seat: int | None) -> str:
    """A readable replay of the record up to `position`, from `seat`'s view when given."""
    ctx = record.ctx
    state = state_at(record, position)
    trump = "none" if ctx.trump is None else ctx.trump.symbol
    lines = [f"Deal {record.id} · rules {json.dumps(record.rules.to_json(), ensure_ascii=False)} · "
             f"level {record.data.get('level')} · trump {trump} · banker seat {record.banker}",
             f"Position {position}" + (f", seen from seat {seat}" if seat is not None else "")]
    for q in range(4):
        role = "banker" if q == record.banker else ("banker side" if (q - record.banker) % 2 == 0 else "attacker")
        cards = [Card.from_index(f) for f, c in state.hands[q].items() for _ in range(c)]
        if seat is None or q == seat:
            shown = pretty_cards(ctx.sort_hand(cards)) or "(empty)"
        else:
            shown = f"({len(cards)} cards hidden)"
        relation = f", {Seat(q).relative_to(seat)}" if seat is not None else ""
        lines.append(f"  seat {q} ({role}{relation}): {shown}")
    if seat is None or seat == record.banker:
        lines.append(f"  kitty: {pretty_cards(record.kitty) if seat is None else '(picked up)'}; "
                     f"buried: {pretty_cards(record.buried)}")
    for number, trick in enumerate(state.tricks, start=1):
        plays = "  ".join(f"{trick.seat_of(i)}: {pretty_cards(play)}" for i, play in enumerate(trick.plays))
        attempt = f" [tried {pretty_cards(trick.attempt)}, failed]" if trick.attempt is not None else ""
        outcome = (f"→ seat {trick.winning} wins, {trick.points} points" if trick.complete
                   else f"→ seat {trick.winning} winning so far")
        lines.append(f"  trick {number:2}{attempt}: {plays} {outcome}")
    lines.append(f"  points won by seat: {state.points_won}; attackers {state.attackers_points}"
                 f"{f', penalties {state.penalties:+d}' if state.penalties else ''}")
    if position.is_end and state.is_over:
        result = state.result()
        lines.append(f"  kitty turned over: {pretty_cards(record.buried)} — {result.kitty_points} points "
                     f"× {result.kitty_multiplier}; attackers' score {result.attackers_score}; "
                     f"{result.side} side up {result.levels}, next banker seat {result.next_banker}")
    return "\n".join(lines)


def _serve(host: str, port: int) -> int:
    """Run the web app with Flask's threaded server (production: gunicorn 'trainer.web:create_app()'),
    printing what the start does as it does it: the database migrated, the starter library loading in
    the background and then loaded, the address listened on."""
    import logging

    import trainer.web

    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("trainer.web")  # the app's logger (Flask's `app.logger`)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    app = trainer.web.create_app()
    print(f"Jipai 记牌: listening on http://{host}:{port}/", flush=True)
    try:
        app.run(host=host, port=port, threaded=True)
    except OSError as error:  # the address is taken, or not this machine's
        print(f"trainer: cannot listen on {shown(host)}:{port}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
