#!/usr/bin/env node
// A minimal Five Up engine in Node.js (no packages): the process protocol, version 1
// (spec/protocol.md), playing the `scoring` level only.
//
//   fiveup certify --engine-cmd "node examples/adapters/node/engine.js"
//
// stdout carries protocol lines only; logs go to stderr.
"use strict";

const readline = require("node:readline");

const PROTOCOL = 1;
const ENGINE = { name: "node-minimal", version: "1.0.0", levels: ["scoring"] };

// penalty: the nearest multiple of 5; a remainder of 1-2 rounds down, 3-4 up (PEN-2).
const penalty = (pips) => Math.floor((pips + 2) / 5) * 5;

const SCORING = {
  credit: (sum) => (sum > 0 && sum % 5 === 0 ? sum : 0), // SCR-2
  displayed: (raw) => Math.floor(raw / 5), // PTS-1
  penalty,
  side_penalty: (pips) => pips.reduce((total, p) => total + penalty(p), 0), // PEN-4
  tally: (raw) => ({ fifties: Math.floor(raw / 50), strokes: Math.floor((((raw % 50) + 50) % 50) / 5) }),
};

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function scoring(given) {
  if (!Object.hasOwn(SCORING, given.function)) {
    return { unsupported: `no scoring function ${JSON.stringify(given.function)}` };
  }
  const fn = SCORING[given.function];
  const input = given.input;
  const isInt = Number.isInteger;
  const ok = given.function === "side_penalty" ? Array.isArray(input) && input.every(isInt) : isInt(input);
  if (!ok) {
    return { errored: `bad input for ${given.function}: ${JSON.stringify(input)}` };
  }
  return { observation: { value: fn(input) } };
}

function answer(request) {
  switch (request.cmd) {
    case "start":
      send({ ready: true, protocol: PROTOCOL, engine: ENGINE });
      return;
    case "stop":
      // Exit only once the line is written: stdout may be asynchronous.
      process.stdout.write(JSON.stringify({ stopped: true }) + "\n", () => process.exit(0));
      return;
    case "run": {
      const seq = request.seq;
      if (!ENGINE.levels.includes(request.level)) {
        send({ seq, unsupported: `level ${JSON.stringify(request.level)} is not played` });
      } else {
        send({ seq, ...scoring(request.given ?? {}) });
      }
      return;
    }
    default:
      if (Number.isInteger(request.seq)) {
        send({ seq: request.seq, errored: `unknown command ${JSON.stringify(request.cmd)}` });
      } else {
        console.error(`node-minimal: ignored ${JSON.stringify(request)}`);
      }
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    console.error(`node-minimal: not JSON, ignored: ${err.message}`);
    return;
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    console.error("node-minimal: not a JSON object, ignored");
    return;
  }
  answer(request);
});
lines.on("close", () => process.exit(0));
