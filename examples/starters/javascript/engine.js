#!/usr/bin/env node
// A starter Five Up engine in JavaScript (Node.js 18+, no packages): the process protocol,
// version 1 (spec/protocol.md). It completes the handshake and declines every case. Fill in
// `play` and claim what it plays in FEATURES (or whole levels in LEVELS):
//
//   fiveup certify --engine-cmd "node examples/starters/javascript/engine.js"
"use strict";

const readline = require("node:readline");

const NAME = "starter-javascript";
const VERSION = "0.1.0";
const LEVELS = []; // whole levels: "scoring", "layout", "round", "match", "moves"
const FEATURES = []; // parts of a level: "scoring.credit", ...

// The observation of one case (spec/protocol.md, per level), or null to decline it.
function play(level, given) {
  return null;
}

function answer(request) {
  if (request.cmd === "start") {
    const engine = { name: NAME, version: VERSION, levels: LEVELS, features: FEATURES };
    return { ready: true, protocol: 1, engine };
  }
  const seq = request.seq;
  if (request.cmd !== "run") return { seq, errored: `unknown command ${JSON.stringify(request.cmd)}` };
  let observation;
  try {
    observation = play(request.level, request.given);
  } catch (err) {
    return { seq, errored: String(err) }; // an engine answers every case, even when it fails
  }
  if (observation === null) return { seq, unsupported: "not implemented yet" };
  return { seq, observation };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    console.error(`${NAME}: not JSON, ignored: ${err.message}`);
    return;
  }
  if (request.cmd === "stop") {
    // Exit only once the line is written: a pipe's stdout is asynchronous in Node.
    process.stdout.write(JSON.stringify({ stopped: true }) + "\n", () => process.exit(0));
  } else {
    process.stdout.write(JSON.stringify(answer(request)) + "\n");
  }
});
lines.on("close", () => process.exit(0));
