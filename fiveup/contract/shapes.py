"""The one entry point of shape checks: the protocol's schemas compiled, jsonschema behind.

:func:`problem` (and :func:`conforms`) is what every room asks: the typed messages
(:mod:`fiveup.contract.messages`), the process client, the runner and the linter. The compiled
code is an implementation detail of it.

Checking an observation with ``jsonschema`` costs milliseconds, far more than playing the case;
a fuzzing campaign checks thousands per second. :func:`conforms` compiles each protocol schema
once into plain Python (the keywords the schemas use: ``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``prefixItems``, ``$ref``, ``oneOf``, ``if``/``then``, ...)
that answers exactly what ``jsonschema`` answers on plain JSON. What it cannot decide exactly
(a float where an integer is expected, a keyword it does not know, a value no JSON parser
makes) it hands to ``jsonschema``, so the answer is always the validator's; and a problem is
described by ``jsonschema`` (:func:`problem`) in a value of at most :data:`DESCRIBED_VALUES`
values; past that, jsonschema's walk would take minutes, and the problem is said without where
(:func:`bounded_problem`). ``tests/test_shapes.py`` holds the two equal over many observations,
valid and broken.

Fixture files are checked here too (:func:`fixture_errors`, what the linter reports): the
compiled fixture schema first, then, for a file it does not find valid, the fixture schema with
its references resolved once and a ``uniqueItems`` in linear time, so that a hostile file is
checked in bounded time; the same test holds both equal to jsonschema's.
"""

from __future__ import annotations

import numbers
import re
import reprlib
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urldefrag, urljoin

from .engine import JSON
from .validators import SCHEMA_NAMES, fixture_schema, message_problem, protocol_schema

if TYPE_CHECKING:  # imported where first needed: the compiled checks need neither
    import jsonschema
    from jsonschema.protocols import Validator

__all__ = [
    "DESCRIBED_VALUES",
    "FIXTURE",
    "Unknown",
    "bounded_problem",
    "compiled",
    "compiled_given",
    "conforms",
    "fixture_errors",
    "problem",
]


class Unknown(Exception):
    """The compiled check cannot decide this value exactly; ``jsonschema`` must."""


_SIMPLE_TYPES: Final = {
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "null": "{v} is None",
    "boolean": "isinstance({v}, bool)",
    "integer": "(type({v}) is int or _integer({v}))",
    "number": "(type({v}) is int or _number({v}))",
}
_KNOWN: Final = frozenset(
    {
        "$schema", "$id", "$defs", "title", "description", "examples", "$comment",
        "type", "properties", "required", "additionalProperties", "items", "prefixItems",
        "minItems", "maxItems", "minimum", "maximum", "pattern", "minLength", "maxLength", "not",
        "oneOf", "anyOf", "allOf", "if", "then", "else", "const", "enum", "$ref", "propertyNames",
        "multipleOf", "uniqueItems", "minProperties", "maxProperties",
    }
)  # fmt: skip


_MEMO: Final = 4096
"""How many valid texts each leaf check remembers."""
_ALIAS: Final = frozenset({"$ref", "description", "title", "$comment"})
_INLINE: Final = frozenset(
    {"type", "const", "pattern", "minimum", "maximum", "not", "$ref", "description", "title"}
)


def _integer(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        if value.is_integer():
            raise Unknown  # 1.0 is an integer to JSON Schema; leave such values to jsonschema
        return False
    return False


def _number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, numbers.Number):
        raise Unknown  # Decimal, Fraction, ...: numbers to jsonschema, never made by a parser
    return False


_SCALARS: Final = (str, int, bool)


def _equal(value: object, const: object) -> bool:
    """JSON equality (``true`` is not ``1``) of a value and a ``const`` that is a scalar."""
    if value is None or const is None:
        return value is const
    kind = type(value)
    if kind is type(const):
        return bool(value == const)
    if kind in _SCALARS or kind is dict or kind is list:
        return False
    if kind is float and not value.is_integer():  # type: ignore[attr-defined]
        return False  # a const is a string, an int, a bool or null: never 2.5
    raise Unknown  # 1.0 equals 1 to JSON Schema, and subclasses are left to jsonschema


def _unique(items: list[Any]) -> bool:
    if all(type(item) is str for item in items):
        return len(set(items)) == len(items)
    raise Unknown


class _Compiler:
    """Turns schemas into Python source: one function per schema object, memoised by URI."""

    def __init__(self) -> None:
        schemas = [fixture_schema(), *(protocol_schema(n) for n in SCHEMA_NAMES)]
        self.resources = {schema["$id"]: schema for schema in schemas}
        self.names: dict[str, str] = {}
        self.count = 0
        self.lines: list[str] = []
        self.env: dict[str, Any] = {
            "_integer": _integer,
            "_number": _number,
            "_equal": _equal,
            "_unique": _unique,
            "Unknown": Unknown,
        }

    def resolve(self, base: str, ref: str) -> tuple[str, Any]:
        uri = urljoin(base, ref)
        document, fragment = urldefrag(uri)
        node: Any = self.resources[document]
        for part in fragment.lstrip("/").split("/") if fragment else ():
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return uri, node

    def function(self, uri: str, node: Any, base: str) -> str:
        """The name of the function that checks ``node`` (compiled on first use)."""
        if uri in self.names:
            return self.names[uri]
        if isinstance(node, dict) and "$ref" in node and set(node) <= _ALIAS:
            target_uri, target = self.resolve(urljoin(base, node.get("$id", "")), node["$ref"])
            self.names[uri] = f"_alias{len(self.names)}"  # a cycle of bare refs stays sound
            name = self.check(target, urldefrag(target_uri)[0], target_uri)
            self.names[uri] = name
            return name
        name = f"_f{len(self.names)}"
        self.names[uri] = name
        body = self.body(node, base, uri)
        self.lines += [f"def {name}(x):", *("    " + line for line in body), "    return True"]
        return name

    def check(self, node: Any, base: str, where: str) -> str:
        """A call that checks a subschema at ``where`` (a name for the memo)."""
        if node is True:
            return "True"
        if node is False:
            return "False"
        return self.function(where, node, base)

    def body(self, node: Any, base: str, uri: str) -> list[str]:
        """The statements of the function that checks ``node``."""
        if node is True:
            return []
        if node is False:
            return ["return False"]
        if not isinstance(node, dict) or not set(node) <= _KNOWN:
            return ["raise Unknown"]
        base = urljoin(base, node.get("$id", ""))
        kinds = node.get("type")
        names = [] if kinds is None else [kinds] if isinstance(kinds, str) else list(kinds)
        if not all(kind in _SIMPLE_TYPES for kind in names):
            return ["raise Unknown"]
        if names:
            test = " or ".join(_SIMPLE_TYPES[kind].format(v="x") for kind in names)
            out = [f"if not ({test}): return False"]
        else:
            out = []
        single = kinds if isinstance(kinds, str) else None
        out += self.value_lines(node)
        numbers = self.number_lines(node)
        if numbers is None:
            return ["raise Unknown"]
        for kind, lines in (
            ("number", numbers),
            ("string", self.string_lines(node)),
            ("object", self.object_lines(node, base, uri)),
            ("array", self.array_lines(node, base, uri)),
        ):
            out += _guarded(kind, single, lines)
        return out + self.combinator_lines(node, base, uri)

    def value_lines(self, node: dict[str, Any]) -> list[str]:
        lines = []
        if "const" in node:
            const = self.constant(_scalar_or_unknown(node["const"]))
            lines.append(f"if not _equal(x, {const}): return False")
        if "enum" in node:
            values = self.constant(tuple(_scalar_or_unknown(v) for v in node["enum"]))
            lines.append(f"if not any(_equal(x, e) for e in {values}): return False")
        return lines

    def number_lines(self, node: dict[str, Any]) -> list[str] | None:
        lines = []
        if "minimum" in node:
            lines.append(f"if x < {self.constant(node['minimum'])}: return False")
        if "maximum" in node:
            lines.append(f"if x > {self.constant(node['maximum'])}: return False")
        if "multipleOf" in node:
            step = node["multipleOf"]
            if type(step) is not int:
                return None
            lines += ["if type(x) is not int: raise Unknown", f"if x % {step}: return False"]
        return lines

    def string_lines(self, node: dict[str, Any]) -> list[str]:
        lines = []
        if "pattern" in node:
            pattern = self.constant(re.compile(node["pattern"]))
            lines.append(f"if not {pattern}.search(x): return False")
        if "minLength" in node:
            lines.append(f"if len(x) < {int(node['minLength'])}: return False")
        if "maxLength" in node:
            lines.append(f"if len(x) > {int(node['maxLength'])}: return False")
        return lines

    def combinator_lines(self, node: dict[str, Any], base: str, uri: str) -> list[str]:
        out = []
        if "$ref" in node:
            target_uri, target = self.resolve(base, node["$ref"])
            target_base = urldefrag(target_uri)[0]
            out.append(f"if not {self.check(target, target_base, target_uri)}(x): return False")
        for i, sub in enumerate(node.get("allOf", ())):
            out.append(f"if not {self.call(sub, base, f'{uri}/allOf/{i}')}: return False")
        if "anyOf" in node:
            calls = [self.call(s, base, f"{uri}/anyOf/{i}") for i, s in enumerate(node["anyOf"])]
            out.append(f"if not ({' or '.join(calls)}): return False")
        if "oneOf" in node:
            calls = [self.call(s, base, f"{uri}/oneOf/{i}") for i, s in enumerate(node["oneOf"])]
            out.append(f"if ({' + '.join(f'bool({c})' for c in calls)}) != 1: return False")
        if "not" in node:
            out.append(f"if {self.call(node['not'], base, f'{uri}/not')}: return False")
        if "if" in node:
            test = self.call(node["if"], base, f"{uri}/if")
            then = self.call(node.get("then", True), base, f"{uri}/then")
            other = self.call(node.get("else", True), base, f"{uri}/else")
            out.append(f"if not (({then}) if ({test}) else ({other})): return False")
        return out

    def call(self, node: Any, base: str, where: str, var: str = "x") -> str:
        """An expression that checks ``var`` against the subschema ``node``."""
        if node is True:
            return "True"
        if node is False:
            return "False"
        parts = self.inline_parts(node, base, var, 0)
        if parts is None:
            return f"{self.function(where, node, base)}({var})"
        if not parts:
            return "True"
        if node.get("type") != "string":
            return f"({' and '.join(parts)})"
        # Texts of the notation repeat (28 tiles, a few hundred points): each is judged once.
        test = " and ".join(self.inline_parts(node, base, "v", 0) or ())
        known = self.constant(set())
        leaf = f"_leaf{self.count}"
        self.lines += [
            f"def {leaf}(v, _known={known}):",
            f"    if not ({test}): return False",
            f"    if len(_known) < {_MEMO}: _known.add(v)",
            "    return True",
        ]
        return f"((type({var}) is str and {var} in {known}) or {leaf}({var}))"

    def inline_parts(self, node: Any, base: str, var: str, depth: int) -> list[str] | None:
        """The checks of a small leaf schema as expressions to join by ``and``, or None."""
        if not isinstance(node, dict) or depth > 4 or not set(node) <= _INLINE:
            return None
        base = urljoin(base, node.get("$id", ""))
        kinds = node.get("type")
        if kinds is not None and kinds not in _SIMPLE_TYPES:
            return None  # a list of types, or an unknown one
        parts = [] if kinds is None else [_SIMPLE_TYPES[kinds].format(v=var)]
        if "const" in node:
            parts.append(f"_equal({var}, {self.constant(_scalar_or_unknown(node['const']))})")
        if "pattern" in node:
            test = f"{self.constant(re.compile(node['pattern']))}.search({var})"
            parts.append(test if kinds == "string" else f"(not isinstance({var}, str) or {test})")
        for word, op in (("minimum", ">="), ("maximum", "<=")):
            if word in node:
                test = f"{var} {op} {self.constant(node[word])}"
                parts.append(test if kinds == "integer" else f"(not _number({var}) or {test})")
        for word in ("not", "$ref"):
            if word in node:
                inner = self.inline_sub(word, node[word], base, var, depth)
                if inner is None:
                    return None
                parts.append(inner)
        return parts

    def inline_sub(self, word: str, sub: Any, base: str, var: str, depth: int) -> str | None:
        """The inline check of a ``not`` or a ``$ref`` inside a leaf schema, or None."""
        if word == "$ref":
            target_uri, sub = self.resolve(base, sub)
            base = urldefrag(target_uri)[0]
        inner = self.inline_parts(sub, base, var, depth + 1)
        if inner is None:
            return None
        joined = f"({' and '.join(inner)})" if inner else "True"
        return f"not {joined}" if word == "not" else joined

    def constant(self, value: object) -> str:
        self.count += 1
        name = f"_c{self.count}"
        self.env[name] = value
        return name

    def object_lines(self, node: dict[str, Any], base: str, uri: str) -> list[str]:
        lines: list[str] = []
        if "minProperties" in node:
            lines.append(f"if len(x) < {int(node['minProperties'])}: return False")
        if "maxProperties" in node:
            lines.append(f"if len(x) > {int(node['maxProperties'])}: return False")
        required = frozenset(node.get("required", ()))
        if required:
            lines.append(f"if not x.keys() >= {self.constant(required)}: return False")
        properties: dict[str, Any] = node.get("properties", {})
        for key, sub in properties.items():
            check = self.call(sub, base, f"{uri}/properties/{key}", "v")
            if check == "True":
                continue
            if key in required:
                lines.append(f"v = x[{self.constant(key)}]")
                lines.append(f"if not {check}: return False")
                continue
            lines.append(f"v = x.get({self.constant(key)}, Unknown)")
            lines.append(f"if v is not Unknown and not {check}: return False")
        extra = node.get("additionalProperties", True)
        if extra is False:
            lines.append(f"if not x.keys() <= {self.constant(frozenset(properties))}: return False")
        elif extra is not True:
            known = self.constant(frozenset(properties))
            check = self.call(extra, base, f"{uri}/additionalProperties", "v")
            lines.append("for k, v in x.items():")
            lines.append(f"    if k not in {known} and not {check}: return False")
        if "propertyNames" in node:
            check = self.call(node["propertyNames"], base, f"{uri}/propertyNames", "k")
            lines.append("for k in x:")
            lines.append(f"    if not {check}: return False")
        return lines

    def array_lines(self, node: dict[str, Any], base: str, uri: str) -> list[str]:
        lines: list[str] = []
        if "minItems" in node:
            lines.append(f"if len(x) < {int(node['minItems'])}: return False")
        if "maxItems" in node:
            lines.append(f"if len(x) > {int(node['maxItems'])}: return False")
        prefix = node.get("prefixItems", [])
        for i, sub in enumerate(prefix):
            check = self.call(sub, base, f"{uri}/prefixItems/{i}", f"x[{i}]")
            lines.append(f"if len(x) > {i} and not {check}: return False")
        if "items" in node:
            items = node["items"]
            if items is False:
                lines.append(f"if len(x) > {len(prefix)}: return False")
            elif items is not True:
                check = self.call(items, base, f"{uri}/items", "v")
                rest = f"x[{len(prefix)}:]" if prefix else "x"
                lines.append(f"for v in {rest}:")
                lines.append(f"    if not {check}: return False")
        if node.get("uniqueItems") is True:
            lines.append("if not _unique(x): return False")
        return lines


_GUARDS: Final = {
    "object": "isinstance(x, dict)",
    "array": "isinstance(x, list)",
    "string": "isinstance(x, str)",
    "number": "(type(x) is int or _number(x))",
}


def _guarded(kind: str, single: str | None, lines: list[str]) -> list[str]:
    """``lines`` run only when the value is of ``kind`` (as JSON Schema applies keywords)."""
    if not lines or single == kind or (single == "integer" and kind == "number"):
        return lines
    return [f"if {_GUARDS[kind]}:", *("    " + line for line in lines)]


def _scalar_or_unknown(value: object) -> object:
    if value is None or type(value) in _SCALARS:
        return value
    raise _Unsupported


class _Unsupported(Exception):
    """A schema keyword value the compiler does not handle (the check is left to jsonschema)."""


def _always_unknown(value: JSON) -> bool:
    raise Unknown


@cache
def compiled(name: str) -> Callable[[JSON], bool]:
    """The compiled check of the protocol schema ``name``: True, False, or raises Unknown.

    ``name`` :data:`FIXTURE` is the fixture files' schema.
    """
    schema = fixture_schema() if name == FIXTURE else protocol_schema(name)
    return _compiled(schema["$id"], schema, schema["$id"])


@cache
def compiled_given(level: str) -> Callable[[JSON], bool]:
    """The compiled check of the ``given`` of a run request of ``level`` (a level's name).

    That is ``run.json#/$defs/<level>``, what :func:`fiveup.contract.schemas.given_problem`
    asks; True, False, or raises Unknown as :func:`compiled` does.
    """
    base = protocol_schema("run")["$id"]
    return _compiled(f"{base}#given-{level}", {"$ref": f"#/$defs/{level}"}, base)


def _compiled(uri: str, schema: Any, base: str) -> Callable[[JSON], bool]:
    compiler = _Compiler()
    try:
        entry = compiler.function(uri, schema, base)
    except (_Unsupported, KeyError, re.error):
        return _always_unknown
    namespace = dict(compiler.env)
    exec("\n".join(compiler.lines), namespace)  # the source is built above from the schemas
    check: Callable[[JSON], bool] = namespace[entry]
    return check


def conforms(name: str, value: JSON) -> bool:
    """True exactly when ``value`` follows the protocol schema ``name`` (as jsonschema says)."""
    try:
        return bool(compiled(name)(value))
    except (Unknown, RecursionError):
        return problem(name, value) is None


DESCRIBED_VALUES: Final = 10_000
"""The most JSON values (objects, arrays and scalars) a problem is described in by jsonschema.

jsonschema takes tens of microseconds a value: a reply of a few hundred thousand values (well
inside the protocol's 1 MiB line, or any size in process) would hold the harness for minutes
per case. The corpus's largest observation has about a hundred values."""


def problem(name: str, value: JSON) -> str | None:
    """What is wrong with ``value`` as the protocol message ``name`` (jsonschema's words).

    A value of more than :data:`DESCRIBED_VALUES` values is judged by the compiled check alone
    and, when it does not follow, said to without saying where (:func:`bounded_problem`).
    """
    return bounded_problem(compiled(name), value, name, lambda: message_problem(name, value))


def bounded_problem(
    check: Callable[[JSON], bool],
    value: JSON,
    schema_name: str,
    describe: Callable[[], str | None],
) -> str | None:
    """What is wrong with ``value`` by the compiled ``check``, in words of ``describe()``.

    ``describe`` (jsonschema) is asked only for a value of at most :data:`DESCRIBED_VALUES`
    values, or one the compiled check cannot decide even with whole floats written as ints.
    """
    try:
        if check(value):
            return None
        decided = True
    except (Unknown, RecursionError):
        decided = False
    if _within(value, DESCRIBED_VALUES):
        return describe()
    if not decided:  # 1.0 where an integer goes, and the like: the same to JSON Schema as 1
        try:
            if check(_integral(value)):
                return None
        except Unknown:
            return describe()  # a value no JSON parser makes (a Decimal)
    return (
        f"does not follow {schema_name}.json (a value of more than {DESCRIBED_VALUES:,} JSON "
        "values; where is not looked for)"
    )


def _within(value: JSON, budget: int) -> bool:
    """True when ``value`` holds at most ``budget`` values, counted no further than that."""
    stack: list[object] = [value]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _integral(value: JSON) -> JSON:
    """``value`` with every float that is a whole number written as an int (JSON Schema's view)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral(item) for item in value]
    return value


# --- fixture files ---------------------------------------------------------------------------


FIXTURE: Final = "fixture"
"""The name :func:`compiled` gives the fixture files' schema."""


def fixture_errors(data: JSON) -> Iterator[jsonschema.ValidationError]:
    """The schema errors of a fixture file's data, lazily, in time bounded whatever it holds.

    ``fixture.json`` with its references into the protocol schemas: the linter reports them.
    A file the compiled check finds valid has none (most of a corpus load was jsonschema
    finding nothing); any other file is described by jsonschema.
    """
    try:
        if compiled(FIXTURE)(data):
            return iter(())
    except (Unknown, RecursionError):
        pass
    return _fixture_validator().iter_errors(data)


def _canonical(value: Any) -> Any:
    """A hashable stand-in for a JSON value: equal stand-ins for values JSON Schema deems equal."""
    if isinstance(value, bool) or value is None:
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(_canonical(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((_canonical(k), _canonical(v)) for k, v in value.items()))
    return ("string", value)


def _unique_items(
    validator: Validator, unique: bool, instance: Any, schema: Mapping[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    """``uniqueItems`` in linear time.

    jsonschema compares unsortable items pairwise, which takes hours over 50,000 mappings.
    """
    if unique and validator.is_type(instance, "array"):
        import jsonschema

        keys = [_canonical(item) for item in instance]
        if len(set(keys)) < len(keys):
            yield jsonschema.ValidationError(f"{reprlib.repr(instance)} has non-unique elements")


_LITERAL: Final = frozenset({"enum", "const", "default", "examples", "required"})
"""Keywords whose values are data, not subschemas: no ``$ref`` is looked for in them."""
_ANNOTATIONS: Final = frozenset({"title", "description", "$comment"})


def _documents() -> dict[str, dict[str, Any]]:
    schemas = [fixture_schema(), *(protocol_schema(name) for name in SCHEMA_NAMES)]
    return {schema["$id"]: schema for schema in schemas}


def _target(documents: Mapping[str, Any], uri: str) -> Any:
    document, fragment = urldefrag(uri)
    node = documents[document]
    for part in fragment.split("/")[1:]:
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _inline(schema: Any, base: str, documents: Mapping[str, Any], seen: frozenset[str]) -> Any:
    """``schema`` with each ``$ref`` replaced by the subschema it names (a recursive one kept).

    jsonschema looks a reference up anew at each value it checks, which costs two thirds of
    the time of a file of many tiles and actions.
    """
    if isinstance(schema, list):
        return [_inline(s, base, documents, seen) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {
        k: v if k in _LITERAL else _inline(v, base, documents, seen)
        for k, v in schema.items()
        if k not in ("$ref", "$defs")
    }
    if "$ref" not in schema:
        return out
    uri = urljoin(base, schema["$ref"])
    if uri in seen:
        return {**out, "$ref": uri}
    resolved = _inline(_target(documents, uri), urldefrag(uri).url, documents, seen | {uri})
    if set(out) <= _ANNOTATIONS:
        return resolved
    return {**out, "allOf": [*out.get("allOf", []), resolved]}


@cache
def _fixture_validator() -> Validator:
    """The validator of fixture files, bounded in time whatever the file holds.

    It checks what :func:`fiveup.contract.schemas.fixture_validator` checks (tests/test_shapes.py
    holds the two equal), with every reference resolved once and a ``uniqueItems`` that takes
    linear time.
    """
    import jsonschema.validators
    from referencing import Registry, Resource

    documents = _documents()
    root = fixture_schema()
    schema = _inline(root, root["$id"], documents, frozenset())
    schema["$schema"] = root["$schema"]
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(document)) for uri, document in documents.items()
    )
    extend: Callable[..., Any] = jsonschema.validators.extend  # untyped in the stubs
    cls = extend(jsonschema.Draft202012Validator, validators={"uniqueItems": _unique_items})
    validator: Validator = cls(schema, registry=registry)
    return validator
