// A starter Five Up engine in Java (17+, no libraries): the process protocol, version 1
// (spec/protocol.md). It completes the handshake and declines every case. Fill in `play` and
// claim what it plays in FEATURES (or whole levels in LEVELS):
//
//   javac -d build Engine.java && fiveup certify --engine-cmd "java -cp build Engine"

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Engine {
    static final String NAME = "starter-java";
    static final String VERSION = "0.1.0";
    static final List<String> LEVELS = List.of(); // whole levels: "scoring", "layout", "round", "match", "moves"
    static final List<String> FEATURES = List.of(); // parts of a level: "scoring.credit", ...

    /** The observation of one case (spec/protocol.md, per level), or null to decline it. */
    static Map<String, Object> play(String level, Map<?, ?> given) {
        return null;
    }

    static Map<String, Object> answer(Map<?, ?> request) {
        Map<String, Object> reply = new LinkedHashMap<>();
        Object cmd = request.get("cmd");
        if ("start".equals(cmd)) {
            Map<String, Object> engine = new LinkedHashMap<>();
            engine.put("name", NAME);
            engine.put("version", VERSION);
            engine.put("levels", LEVELS);
            engine.put("features", FEATURES);
            reply.put("ready", true);
            reply.put("protocol", 1);
            reply.put("engine", engine);
            return reply;
        }
        reply.put("seq", request.get("seq"));
        if (!"run".equals(cmd)) {
            reply.put("errored", "unknown command " + cmd);
            return reply;
        }
        try {
            Object given = request.get("given");
            Map<String, Object> observation =
                    play(String.valueOf(request.get("level")), given instanceof Map<?, ?> m ? m : Map.of());
            if (observation == null) {
                reply.put("unsupported", "not implemented yet");
            } else {
                reply.put("observation", observation);
            }
        } catch (RuntimeException e) { // an engine answers every case, even when it fails
            reply.put("errored", e.toString());
        }
        return reply;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (String line; (line = in.readLine()) != null; ) {
            Object request;
            try {
                request = new Json(line).read();
            } catch (RuntimeException e) {
                System.err.println(NAME + ": not JSON, ignored: " + e.getMessage());
                continue;
            }
            if (!(request instanceof Map<?, ?> map)) {
                System.err.println(NAME + ": not a JSON object, ignored");
                continue;
            }
            boolean stop = "stop".equals(map.get("cmd"));
            // One line per reply, flushed at once: a reply left in a buffer is a hang to the harness.
            out.print(Json.write(stop ? Map.of("stopped", true) : answer(map)) + "\n");
            out.flush();
            if (stop) {
                return;
            }
        }
    }

    /** Just enough JSON for the protocol: objects are Maps, lists Lists, numbers Long or Double. */
    static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Object read() {
            Object value = value(0);
            space();
            if (at < text.length()) {
                throw new IllegalArgumentException("unexpected text at " + at);
            }
            return value;
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private char next() {
            if (at >= text.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            return text.charAt(at++);
        }

        private void expect(String word) {
            for (char c : word.toCharArray()) {
                if (next() != c) {
                    throw new IllegalArgumentException("expected " + word + " at " + at);
                }
            }
        }

        private Object value(int depth) {
            if (depth > 64) {
                throw new IllegalArgumentException("nested too deeply");
            }
            space();
            if (at >= text.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            switch (text.charAt(at)) {
                case 'n': expect("null"); return null;
                case 't': expect("true"); return true;
                case 'f': expect("false"); return false;
                case '"': return string();
                case '[': {
                    at++;
                    List<Object> items = new ArrayList<>();
                    space();
                    if (at < text.length() && text.charAt(at) == ']') {
                        at++;
                        return items;
                    }
                    while (true) {
                        items.add(value(depth + 1));
                        space();
                        char c = next();
                        if (c == ']') return items;
                        if (c != ',') throw new IllegalArgumentException("unexpected " + c + " in a list");
                    }
                }
                case '{': {
                    at++;
                    Map<String, Object> pairs = new LinkedHashMap<>();
                    space();
                    if (at < text.length() && text.charAt(at) == '}') {
                        at++;
                        return pairs;
                    }
                    while (true) {
                        space();
                        String key = string();
                        space();
                        expect(":");
                        pairs.put(key, value(depth + 1));
                        space();
                        char c = next();
                        if (c == '}') return pairs;
                        if (c != ',') throw new IllegalArgumentException("unexpected " + c + " in an object");
                    }
                }
                default: return number();
            }
        }

        private String string() {
            expect("\"");
            StringBuilder s = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') return s.toString();
                if (c != '\\') {
                    s.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case 'n': s.append('\n'); break;
                    case 't': s.append('\t'); break;
                    case 'r': s.append('\r'); break;
                    case 'b': s.append('\b'); break;
                    case 'f': s.append('\f'); break;
                    case 'u': s.append((char) Integer.parseInt(text.substring(at, at += 4), 16)); break;
                    default: s.append(e);
                }
            }
        }

        private Object number() {
            int start = at;
            while (at < text.length() && "+-.eE0123456789".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            String n = text.substring(start, at);
            try {
                return n.matches("-?\\d{1,18}") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a JSON value at " + start);
            }
        }

        static String write(Object value) {
            if (value == null) return "null";
            if (value instanceof String s) {
                StringBuilder b = new StringBuilder("\"");
                for (char c : s.toCharArray()) {
                    if (c == '"' || c == '\\') b.append('\\').append(c);
                    else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
                return b.append('"').toString();
            }
            if (value instanceof Map<?, ?> map) {
                List<String> parts = new ArrayList<>();
                map.forEach((k, v) -> parts.add(write(String.valueOf(k)) + ":" + write(v)));
                return "{" + String.join(",", parts) + "}";
            }
            if (value instanceof List<?> list) {
                List<String> parts = new ArrayList<>();
                list.forEach(v -> parts.add(write(v)));
                return "[" + String.join(",", parts) + "]";
            }
            return String.valueOf(value); // Boolean, Long, Integer, Double
        }
    }
}
