"""Deterministic generator of plausible Rust source, for benchmarks.

    from rustgen import RustGen
    text = RustGen(seed).file(target_bytes)

Built from templates with a seeded `random.Random`: module docs, `use` lists,
structs, enums, impl blocks whose fns hold lets, matches, loops, closures,
string literals and macros, and `#[cfg(test)]` modules. Same seed and size:
same text, byte for byte. Python 3 standard library only.
"""
import random

NOUNS = ["config", "parser", "buffer", "token", "frame", "record", "session", "cache", "index", "layout",
         "span", "cursor", "theme", "window", "event", "request", "reply", "table", "entry", "node",
         "graph", "queue", "worker", "channel", "stream", "chunk", "header", "payload", "budget", "limit"]
VERBS = ["load", "parse", "render", "split", "merge", "flush", "apply", "reset", "resolve", "encode",
         "decode", "measure", "scan", "push", "pop", "insert", "remove", "sync", "drain", "wrap"]
ADJ = ["raw", "next", "last", "first", "pending", "visible", "dirty", "cached", "total", "max", "min", "old", "new"]
TYPES = ["u8", "u16", "u32", "u64", "usize", "i32", "i64", "f32", "f64", "bool", "String", "Vec<u8>",
         "Option<usize>", "Vec<String>", "&'a str", "Box<dyn Error>", "HashMap<String, usize>", "Arc<Mutex<State>>"]
WORDS = ("the value is kept until the next call and then dropped so that a caller never sees a stale "
         "entry when it reads the table again after a reset or a resize of the window").split()
CRATES = ["std::collections::HashMap", "std::sync::{Arc, Mutex}", "std::fmt", "std::io::{self, Read, Write}",
          "std::error::Error", "std::time::{Duration, Instant}", "crate::text::Line", "crate::theme::Theme",
          "serde::{Deserialize, Serialize}", "std::ops::Range", "std::path::{Path, PathBuf}"]


def camel(s):
    return "".join(p.capitalize() for p in s.split("_"))


class RustGen:
    def __init__(self, seed=11):
        self.r = random.Random(seed)
        self.n = 0

    def ident(self):
        r = self.r
        return f"{r.choice(ADJ)}_{r.choice(NOUNS)}"

    def words(self, lo, hi):
        return " ".join(self.r.choice(WORDS) for _ in range(self.r.randint(lo, hi)))

    def ty(self):
        return self.r.choice(TYPES)

    def expr(self, depth=0):
        r = self.r
        k = r.randint(0, 9 if depth < 2 else 4)
        a, b = self.ident(), self.ident()
        if k == 0:
            return str(r.randint(0, 4096))
        if k == 1:
            return f"{a}.len()"
        if k == 2:
            return f"{a} + {b} * {r.randint(2, 64)}"
        if k == 3:
            return f'"{self.words(1, 5)}"'
        if k == 4:
            return f"self.{a}.{r.choice(VERBS)}()"
        if k == 5:
            return f"{r.choice(VERBS)}_{r.choice(NOUNS)}(&{a}, {self.expr(depth + 1)})"
        if k == 6:
            return f'format!("{{}}: {{:>{r.randint(2, 12)}}}", {a}, {b})'
        if k == 7:
            return f"{a}.iter().map(|x| x * {r.randint(2, 9)}).sum::<usize>()"
        if k == 8:
            return f"vec![{', '.join(str(r.randint(0, 99)) for _ in range(r.randint(1, 6)))}]"
        return f"{a}.get({r.randint(0, 9)}).copied().unwrap_or_default()"

    def stmt(self, ind):
        r = self.r
        p = " " * ind
        k = r.randint(0, 11)
        if k <= 3:
            return [f"{p}let {'mut ' if r.random() < 0.3 else ''}{self.ident()} = {self.expr()};"]
        if k == 4:
            return [f"{p}// {self.words(4, 12).capitalize()}."]
        if k == 5:
            return [f"{p}if {self.ident()} > {r.randint(0, 100)} {{",
                    *self.block(ind + 4, 1, 3),
                    f"{p}}} else {{",
                    *self.block(ind + 4, 1, 2),
                    f"{p}}}"]
        if k == 6:
            return [f"{p}for {r.choice('ijkn')} in 0..{self.ident()}.len() {{",
                    *self.block(ind + 4, 1, 3),
                    f"{p}}}"]
        if k == 7:
            arms = [f"{p}    {camel(self.r.choice(NOUNS))}::{camel(self.r.choice(VERBS))} => {self.expr(1)},"
                    for _ in range(r.randint(2, 4))]
            return [f"{p}match {self.ident()} {{", *arms, f"{p}    _ => {self.expr(2)},", f"{p}}}"]
        if k == 8:
            return [f'{p}println!("{self.words(2, 6)}: {{}}", {self.ident()});']
        if k == 9:
            return [f"{p}self.{self.ident()} = {self.expr()};"]
        if k == 10:
            return [f'{p}debug_assert!({self.ident()} <= {r.randint(1, 999)}, "{self.words(2, 6)}");']
        return [f"{p}{r.choice(VERBS)}_{r.choice(NOUNS)}(&mut {self.ident()})?;"]

    def block(self, ind, lo, hi):
        out = []
        for _ in range(self.r.randint(lo, hi)):
            out.extend(self.stmt(ind) if ind < 20 else [" " * ind + f"{self.ident()} += 1;"])
        return out

    def func(self, ind, method):
        r = self.r
        p = " " * ind
        name = f"{r.choice(VERBS)}_{r.choice(NOUNS)}_{self.n}"
        self.n += 1
        args = ", ".join(f"{self.ident()}: {self.ty()}" for _ in range(r.randint(0, 3)))
        if method:
            args = ("&mut self" if r.random() < 0.4 else "&self") + (", " + args if args else "")
        ret = r.choice(["", " -> usize", " -> Result<(), Error>", " -> Option<&str>", " -> bool"])
        out = [f"{p}/// {self.words(5, 14).capitalize()}."]
        if r.random() < 0.3:
            out.append(f"{p}#[inline]")
        out.append(f"{p}pub fn {name}({args}){ret} {{")
        out.extend(self.block(ind + 4, 3, 12))
        tail = {"": None, " -> usize": "0", " -> Result<(), Error>": "Ok(())", " -> Option<&str>": "None",
                " -> bool": "true"}[ret]
        if tail:
            out.append(f"{p}    {tail}")
        out.append(f"{p}}}")
        out.append("")
        return out

    def item(self):
        r = self.r
        k = r.randint(0, 6)
        name = camel(f"{r.choice(ADJ)}_{r.choice(NOUNS)}") + str(self.n)
        self.n += 1
        if k <= 1:
            fields = [f"    pub {self.ident()}: {self.ty()}," for _ in range(r.randint(2, 8))]
            return [f"/// {self.words(4, 10).capitalize()}.", "#[derive(Debug, Clone, PartialEq)]",
                    f"pub struct {name} {{", *fields, "}", ""]
        if k == 2:
            vs = [f"    {camel(r.choice(VERBS))}{i}" + (f"({self.ty()})," if r.random() < 0.5 else ",")
                  for i in range(r.randint(2, 6))]
            return [f"/// {self.words(4, 10).capitalize()}.", "#[derive(Debug, Clone, Copy)]",
                    f"pub enum {name} {{", *vs, "}", ""]
        if k <= 4:
            out = [f"impl {name} {{"]
            for _ in range(r.randint(1, 4)):
                out.extend(self.func(4, True))
            out[-1:] = ["}", ""]
            return out
        if k == 5:
            return self.func(0, False)
        out = ["#[cfg(test)]", f"mod tests_{self.n} {{", "    use super::*;", ""]
        for _ in range(r.randint(1, 3)):
            out += ["    #[test]", f"    fn {r.choice(VERBS)}_{r.choice(NOUNS)}_{self.n}() {{",
                    f"        let {self.ident()} = {self.expr()};",
                    f"        assert_eq!({self.ident()}, {self.expr(2)});", "    }", ""]
            self.n += 1
        out[-1:] = ["}", ""]
        return out

    def lines(self, target_bytes):
        """Lines (without newlines) of a file of about `target_bytes`."""
        out = [f"//! {self.words(6, 14).capitalize()}.", "//!", f"//! {self.words(6, 14).capitalize()}.", ""]
        out += [f"use {c};" for c in self.r.sample(CRATES, 5)] + [""]
        size = sum(len(l) + 1 for l in out)
        while size < target_bytes:
            it = self.item()
            out.extend(it)
            size += sum(len(l) + 1 for l in it)
        return out

    def file(self, target_bytes):
        return "\n".join(self.lines(target_bytes)) + "\n"
