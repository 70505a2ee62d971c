"""At its first case, ignores SIGTERM, SIGHUP and SIGINT and sleeps forever."""

from _hostile import Message, serve, sleep_forever


def run(request: Message) -> Message:
    sleep_forever()


serve("deaf_sleeper", on_run=run)
