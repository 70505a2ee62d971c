"""Names itself, and answers, with markup, control characters, lone surrogates and floods.

Its name and version hold a script tag, NUL, BEL, an ANSI escape and a lone surrogate, and run
100,000 characters long; it answers one case ``errored``, another ``unsupported``, each with such
a text, and the rest with such a text where a number belongs.
"""

from _hostile import Message, right, serve

POISON = "<script>alert(1)</script>\x00\x07\x1b[31m\ud800]]><!--\u2028"


def run(request: Message) -> Message:
    seq = request["seq"]
    if request["given"]["input"] == 5:
        return {"seq": seq, "errored": POISON + "E" * 100_000}
    if request["given"]["input"] == 50:
        return {"seq": seq, "unsupported": POISON + "U" * 100_000}
    reply = right(request)
    reply["observation"]["value"] = POISON
    return reply


serve(POISON + "N" * 100_000, on_run=run)
