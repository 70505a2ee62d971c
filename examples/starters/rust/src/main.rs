//! A starter Five Up engine in Rust (std only, no crates): the process protocol, version 1
//! (spec/protocol.md). It completes the handshake and declines every case. Fill in `play` and
//! claim what it plays in FEATURES (or whole levels in LEVELS):
//!
//!     cargo build --release && fiveup certify --engine-cmd "target/release/fiveup-starter"

mod json;

use json::Json;
use std::io::{self, BufRead, Write};

const NAME: &str = "starter-rust";
const VERSION: &str = "0.1.0";
const LEVELS: &[&str] = &[]; // whole levels: "scoring", "layout", "round", "match", "moves"
const FEATURES: &[&str] = &[]; // parts of a level: "scoring.credit", ...

/// The observation of one case (spec/protocol.md, per level), or None to decline it.
fn play(level: &str, given: &Json) -> Option<Json> {
    let _ = (level, given);
    None
}

fn strings(items: &[&str]) -> Json {
    Json::Arr(items.iter().map(|s| Json::str(s)).collect())
}

fn answer(request: &Json) -> Json {
    let cmd = request.get("cmd").and_then(Json::as_str).unwrap_or("");
    if cmd == "start" {
        let engine = Json::obj(vec![
            ("name", Json::str(NAME)),
            ("version", Json::str(VERSION)),
            ("levels", strings(LEVELS)),
            ("features", strings(FEATURES)),
        ]);
        return Json::obj(vec![("ready", Json::Bool(true)), ("protocol", Json::Num(1.0)), ("engine", engine)]);
    }
    let seq = request.get("seq").cloned().unwrap_or(Json::Null);
    if cmd != "run" {
        return Json::obj(vec![("seq", seq), ("errored", Json::str(&format!("unknown command {cmd:?}")))]);
    }
    let level = request.get("level").and_then(Json::as_str).unwrap_or("");
    match play(level, request.get("given").unwrap_or(&Json::Null)) {
        Some(observation) => Json::obj(vec![("seq", seq), ("observation", observation)]),
        None => Json::obj(vec![("seq", seq), ("unsupported", Json::str("not implemented yet"))]),
    }
}

fn main() {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let request = match json::parse(&line) {
            Ok(request) => request,
            Err(error) => {
                eprintln!("{NAME}: not JSON, ignored: {error}");
                continue;
            }
        };
        let stop = request.get("cmd").and_then(Json::as_str) == Some("stop");
        let reply = if stop { Json::obj(vec![("stopped", Json::Bool(true))]) } else { answer(&request) };
        // One line per reply, flushed at once: a reply left in a buffer is a hang to the harness.
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() || stop {
            break;
        }
    }
}
