"""The signal rules in words, in English and 中文, by op and rule id (signals.md's enums)."""
from __future__ import annotations

REASONS: dict[tuple[str, str], tuple[str, str]] = {
    ("respond", "void"): ("You hold no card of the led suit: the convention is silent, any legal card.",
                          "该门已断：约定不作要求，任何合法的牌都可以。"),
    ("respond", "no_convention"): ("No signal convention applies to this lead: any card of the suit.",
                                   "这次出牌没有信号约定：该门任何一张都可以。"),
    ("respond", "not_an_ask"): ("The other card of that rank is already played, so the lead asks nothing.",
                                "另一张已经出过，这次出牌不是在找牌。"),
    ("respond", "answer_A"): ("Partner leads the A and you hold the other A: answer with a signal card (应A).",
                              "对家出A，你有另一张A：给信号牌（应A）。"),
    ("respond", "skip_signal_10"): ("Helper with A, K, K and 10: signal, or skip the signal and play the 10 "
                                    "(seed 000 5.2.5).",
                                    "帮家有A、KK、10：可以给信号，也可以不给信号直接出10（走分）。"),
    ("respond", "has_A_no_signal_card"): ("You hold the other A but no signal card: any card but the A.",
                                          "你有另一张A却没有信号牌：出A以外的任何一张。"),
    ("respond", "no_A"): ("Without the other A never play a signal card: a non-signal card or points (走分).",
                          "没有另一张A就不能出信号牌：出非信号牌或走分。"),
    ("respond", "only_signal_cards"): ("You hold only signal cards of the suit: one is forced (it will be read as "
                                       "a signal).",
                                       "该门只剩信号牌：只能出信号牌（对家会当作有A）。"),
    ("respond", "nt_opponent_A"): ("No trump: an attacker holding the other A signals on an opponent's A too "
                                   "(seed 000 5.3.1).",
                                   "无主时，闲家有另一张A，对方出A也要给信号。"),
    ("respond", "ask_K"): ("The single K from A A K asks for the K: signal, or give the 10 (确定给信号还是给分).",
                           "出单K表示有双A、在找K：有K就给信号或给分（10）。"),
    ("respond", "ask_K_promote_Q"): ("The K is asked for and partner holds the Q: you may also play the K to "
                                     "promote the Q (seed 001 牌例3–4).",
                                     "对家找K且有Q：也可以出K，使对家的Q升级。"),
    ("respond", "has_K_no_signal_card"): ("You hold the other K but no signal card or 10: any card but the K.",
                                          "你有另一张K却没有信号牌和10：出K以外的任何一张。"),
    ("respond", "no_K"): ("Without the other K never play a signal card on the K-ask.",
                          "没有另一张K就不能出信号牌。"),
    ("respond", "five_lead_K"): ("The 5 from A A × × 5 requires the K: play it (seed 001 2.B).",
                                 "出单5表示有双A，要求对家有K必须出K。"),
    ("respond", "five_lead_no_K"): ("The 5-lead asks only for a K; without one, any card of the suit.",
                                    "出5只要求K；没有K就出该门任何一张。"),
    ("interpret", "no_convention"): ("No convention reads this card.", "这张牌没有约定含义。"),
    ("interpret", "not_an_ask"): ("Both copies are accounted for: the lead asked nothing, the card says nothing.",
                                  "另一张已知，不是在找牌，这张牌不表示什么。"),
    ("interpret", "void"): ("Partner did not follow suit: void in it.", "对家没有跟该门：已断门。"),
    ("interpret", "played_asked_card"): ("Partner played the very card you asked for.", "对家直接出了你找的那张牌。"),
    ("interpret", "answer_A"): ("A signal card on your A: partner holds the other A (应A).",
                                "对家在你的A上给了信号牌：有另一张A。"),
    ("interpret", "skip_signal_10"): ("The 10 from the helper: points, or the AKK10 holding that skips the "
                                      "signal — cannot tell.",
                                      "帮家出10：可能是走分，也可能是AKK10不给信号，无法判断。"),
    ("interpret", "no_A"): ("A non-signal card on your A: partner has no A.", "对家出非信号牌：没有A。"),
    ("interpret", "nt_opponent_A"): ("No trump: partner's signal card on the opponent's A shows the other A.",
                                     "无主时，对家在对方的A上给信号：有另一张A。"),
    ("interpret", "ask_K"): ("A signal card on your K-ask: partner holds the other K.", "对家在你找K时给信号：有K。"),
    ("interpret", "ask_K_points"): ("The 10 on your K-ask: a signal or just points — cannot tell "
                                    "(确定给信号还是给分).",
                                    "对家出10：可能有K给分，也可能只是走分，无法判断。"),
    ("interpret", "no_K"): ("A non-signal card on your K-ask: partner has no K.", "对家出非信号牌：没有K。"),
    ("interpret", "five_lead_K"): ("Partner played the K your 5 required.", "对家按要求出了K。"),
    ("interpret", "five_lead_no_K"): ("No K on your 5-lead: partner has none (a K was required).",
                                      "你出5而对家没出K：对家没有K（有K必须出）。"),
    ("discard_order", "order_two"): ("Two cards: the smaller laid last (小在上; the bigger under 大在上) says "
                                     "yes — an A, or now void.",
                                     "两张：小的后出（小在上；大在上则反之）表示有A或断门，否则表示没有。"),
    ("discard_order", "order_three_plus"): ("Three or more (小在上; 大在上 mirrors it): strictly descending = "
                                            "void; smallest last = holds an A; otherwise no.",
                                            "三张以上（小在上；大在上则反之）：从大到小 = 断门；最小的最后出 = 有A；"
                                            "否则没有。"),
    ("discard_order", "sum_all"): ("The parity of the sum of the cards' values says yes or no.",
                                   "看点数之和的奇偶：表示有A或断门，或者没有。"),
    ("discard_order", "sum_others_only"): ("One card of the suit: only the other cards' values count "
                                           "(seed 001 四.3(2)).",
                                           "该门只有一张：只算其它牌的点数之和。"),
    ("discard_order", "pair_in_play"): ("A pair answered the pair: no signal.", "用对子跟对子：没有信号。"),
    ("discard_order", "void_before"): ("No card of the suit: already void, the order says nothing.",
                                       "一张该门牌都没有：早已断门，顺序不表示什么。"),
    ("discard_order", "not_side_suit"): ("Trump leads carry no discard signal.", "主牌没有垫牌信号。"),
    ("discard_order", "not_partner_lead"): ("Only discards on the partner's lead signal.",
                                            "只有对家出的牌才有垫牌信号。"),
    ("pass", "pass"): ("Partner signalled: pass the suit now (lead a small card of it).",
                       "对家给了信号：现在传牌（出该门小牌给对家）。"),
    ("pass", "exception"): ("Partner signalled, but an exception of seed 001 三(一) lets you keep the suit.",
                            "对家给了信号，但符合不传的情况（三(一)）。"),
    ("pass", "no_signal_last_card"): ("No signal: with one card left you may play it.",
                                      "对家没有表示：只剩一张，可以出。"),
    ("pass", "no_signal_K_discarded"): ("No signal, an opponent discarded a K and you hold the other: any card.",
                                        "对家没有表示，对方垫出了K而你有另一张K：可以出任意一张。"),
    ("pass", "no_signal"): ("No signal: do not pass; a push (推牌) needs a reason.",
                            "对家没有表示：不传；推牌必须合理。"),
    ("opening_request", "opening_JQA"): ("The banker's opening trump J, Q or A asks the partner to help draw "
                                         "trumps (a few top side cards first is fine).",
                                         "庄家首引主J、Q、A：要求对家帮助吊主（可以先发挥几张大副牌）。"),
    ("opening_request", "opening_level"): ("An opening level card asks strongly to draw trumps: no side cards "
                                           "first.",
                                           "首引级牌：强烈要求吊主，原则上不能先出副牌。"),
    ("opening_request", "midhand_level"): ("A level card led later: the banker wants no more side suits.",
                                           "庄家中途用级牌吊主：要求对家不要再出副牌。"),
    ("opening_request", "none"): ("This lead requests nothing.", "这次出牌没有要求。"),
}
PASS_EXCEPTIONS = {
    1: ("the A was your only card of the suit: nothing is left to pass", "A是该门唯一一张，无牌可传"),
    2: ("after the A only one pair is left (A QQ)", "A后只剩一对（A QQ）"),
    3: ("you hold a tractor, or a long suit built on one", "你有拖拉机（或由拖拉机组成的长套）"),
    4: ("other suits' top cards must be cashed first (then pass)", "先出其它门的大牌（之后再传）"),
    5: ("you are establishing this suit as a long suit", "你要把这门做成长套"),
    6: ("partner has shown a void in another side suit", "对家已在另一门副牌断门"),
    7: ("partner has already won a trick", "对家已经赢过一轮"),
    8: ("partner has discarded this suit", "对家垫过这门"),
    9: ("the opponents have discarded this suit's K and 10", "对方垫出了这门的K和10"),
}
"""The nine exceptions of seed 001 三(一) that let the leader keep a suit partner signalled in."""
for _rule in ("order_two", "order_three_plus", "sum_all", "sum_others_only", "void_before", "not_side_suit"):
    REASONS[("discard_play", _rule)] = REASONS[("discard_order", _rule)]
REASONS[("discard_play", "must_follow_pair")] = ("You hold a pair: the pair must be answered with a pair, no "
                                                 "signal.", "有对子必须跟对子：没有垫牌信号。")


def reason_text(op: str, rule: str, lang: str = "en") -> str:
    """The reason for `rule` of `op` in `lang` (`zh` or anything else for English); a pass kept under
    exception N (`exception_N`, as the quiz files it) names that exception."""
    if op == "pass" and rule.startswith("exception_"):
        number = int(rule.removeprefix("exception_"))
        english, chinese = PASS_EXCEPTIONS[number]
        return (f"对家给了信号，但符合不传的第{number}种情况（三(一)）：{chinese}。" if lang == "zh" else
                f"Partner signalled, but exception {number} of seed 001 三(一) lets you keep the suit: {english}.")
    english, chinese = REASONS[(op, rule)]
    return chinese if lang == "zh" else english
