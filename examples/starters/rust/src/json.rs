//! Just enough JSON for the protocol: a value, a reader and a writer (`Display`).

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }

    pub fn obj(pairs: Vec<(&str, Json)>) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// The value under `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An integer, when the number is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => Some(*n as i64),
            _ => None,
        }
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => write!(f, "null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Num(n) => match self.as_i64() {
                Some(i) => write!(f, "{i}"),
                None => write!(f, "{n}"),
            },
            Json::Str(s) => write_str(f, s),
            Json::Arr(items) => {
                write!(f, "[")?;
                for (i, item) in items.iter().enumerate() {
                    write!(f, "{}{item}", if i > 0 { "," } else { "" })?;
                }
                write!(f, "]")
            }
            Json::Obj(pairs) => {
                write!(f, "{{")?;
                for (i, (key, value)) in pairs.iter().enumerate() {
                    write!(f, "{}", if i > 0 { "," } else { "" })?;
                    write_str(f, key)?;
                    write!(f, ":{value}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

fn write_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    write!(f, "\"")?;
    for c in s.chars() {
        match c {
            '"' => write!(f, "\\\"")?,
            '\\' => write!(f, "\\\\")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    write!(f, "\"")
}

/// Reads one JSON value that fills the whole text.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut reader = Reader { chars: text.chars().collect(), at: 0 };
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at < reader.chars.len() {
        return Err(format!("unexpected text at {}", reader.at));
    }
    Ok(value)
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn skip_space(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn next(&mut self) -> Result<char, String> {
        let c = *self.chars.get(self.at).ok_or("unexpected end")?;
        self.at += 1;
        Ok(c)
    }

    fn expect(&mut self, word: &str) -> Result<(), String> {
        for w in word.chars() {
            if self.next()? != w {
                return Err(format!("expected {word} at {}", self.at));
            }
        }
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 64 {
            return Err("nested too deeply".to_string());
        }
        self.skip_space();
        match self.chars.get(self.at).copied().ok_or("unexpected end")? {
            'n' => self.expect("null").map(|()| Json::Null),
            't' => self.expect("true").map(|()| Json::Bool(true)),
            'f' => self.expect("false").map(|()| Json::Bool(false)),
            '"' => self.string().map(Json::Str),
            '[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.skip_space();
                if self.chars.get(self.at) == Some(&']') {
                    self.at += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.skip_space();
                    match self.next()? {
                        ',' => continue,
                        ']' => return Ok(Json::Arr(items)),
                        c => return Err(format!("unexpected {c:?} in a list")),
                    }
                }
            }
            '{' => {
                self.at += 1;
                let mut pairs = Vec::new();
                self.skip_space();
                if self.chars.get(self.at) == Some(&'}') {
                    self.at += 1;
                    return Ok(Json::Obj(pairs));
                }
                loop {
                    self.skip_space();
                    let key = self.string()?;
                    self.skip_space();
                    self.expect(":")?;
                    pairs.push((key, self.value(depth + 1)?));
                    self.skip_space();
                    match self.next()? {
                        ',' => continue,
                        '}' => return Ok(Json::Obj(pairs)),
                        c => return Err(format!("unexpected {c:?} in an object")),
                    }
                }
            }
            _ => self.number(),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect("\"")?;
        let mut s = String::new();
        loop {
            match self.next()? {
                '"' => return Ok(s),
                '\\' => match self.next()? {
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    'r' => s.push('\r'),
                    'b' => s.push('\u{8}'),
                    'f' => s.push('\u{c}'),
                    'u' => {
                        let hex: String = (0..4).map(|_| self.next()).collect::<Result<_, _>>()?;
                        let code = u32::from_str_radix(&hex, 16).map_err(|e| e.to_string())?;
                        s.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                    }
                    c => s.push(c),
                },
                c => s.push(c),
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        while self.chars.get(self.at).is_some_and(|c| "+-.eE0123456789".contains(*c)) {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        text.parse().map(Json::Num).map_err(|_| format!("not a JSON value at {start}"))
    }
}
