//! The pieces every page of the standings site is made of: the shell (head, shared style sheet,
//! navigation, footer), the escaping of each context, and the file names that links point to.
//!
//! Every string that came from a standing, an `about.yaml` or a case goes through [`esc`] (HTML
//! text and quoted attribute values); every path segment of a link or a file name goes through
//! [`slug`], which keeps `[A-Za-z0-9_-]` and writes every other byte as `~XX`, so that a name
//! never holds `/`, `..`, `%`, a quote or a scheme: a link is a relative path to a file the site
//! wrote, the same string on disk and in the URL.

use std::fmt::Write as _;

/// The shared style sheet, `style.css` at the site's root.
pub(super) const STYLE: &str = r#":root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --line: #d1d9e0;
  --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --skip: #59636e; --observed: #0969da; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d;
  --pass: #3fb950; --fail: #f85149; --error: #d29922; --skip: #9198a1; --observed: #4493f8; --code: #151b23; } }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto;
  max-width: 78rem; padding: 1rem; overflow-wrap: break-word; }
a { color: var(--observed); }
nav { font-size: .9rem; color: var(--muted); margin-bottom: .5rem; }
h1 code { font-size: inherit; } h3 .summary { font-weight: normal; }
h1 { font-size: 1.45rem; margin: .2rem 0 .5rem; line-height: 1.25; } h2 { font-size: 1.2rem; margin-top: 1.8rem;
  border-bottom: 1px solid var(--line); padding-bottom: .2rem; } h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
.meta, .note { color: var(--muted); margin: .2rem 0; font-size: .92rem; }
.banner { border: 1px solid var(--fail); border-left-width: 4px; padding: .5rem .7rem; border-radius: 4px; }
.scroll { overflow-x: auto; margin: .5rem 0 1rem; }
table { border-collapse: collapse; }
.does td.f { text-align: center; white-space: nowrap; } .does td.f a { font-weight: 600; text-decoration: none; }
.f-always a { color: var(--pass); } .f-mostly a { color: var(--pass); } .f-sometimes a { color: var(--error); }
.f-rarely a, .f-never a { color: var(--fail); } .f-none { color: var(--muted); } .key { margin: .3rem 0; padding-left: 1.6rem; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--code); position: sticky; top: 0; }
th[scope=row] { font-weight: normal; min-width: 11rem; }
th[scope=row] a { font-weight: 600; }
td.n { white-space: nowrap; font-variant-numeric: tabular-nums; }
.v { font-weight: 600; white-space: nowrap; }
.v-conforms, .s-pass { color: var(--pass); } .v-does_not_conform, .v-incomplete, .s-fail { color: var(--fail); }
.s-error { color: var(--error); } .v-not_claimed, .v-not_run, .s-skip, .s-not_applicable, .s-missing { color: var(--skip); }
.s-observed { color: var(--observed); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .86rem; }
pre { background: var(--code); padding: .5rem .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word;
  margin: .3rem 0; border-radius: 4px; }
blockquote { margin: .3rem 0; padding: .1rem .8rem; border-left: 3px solid var(--line); }
ul.cases { list-style: none; padding: 0; margin: .3rem 0; } ul.cases li { padding: .15rem 0; border-bottom: 1px solid var(--line); }
.tally { font-size: .82rem; white-space: nowrap; }
details.topic { margin: .3rem 0; } details.topic > summary { cursor: pointer; font-weight: 600; }
section.answer { border: 1px solid var(--line); border-left: 4px solid currentColor; border-radius: 4px; margin: .7rem 0;
  padding: .3rem .7rem; }
section.answer > * { color: var(--fg); } section.answer > h3 { margin: .3rem 0; }
section.answer > h3 .s { text-transform: uppercase; font-size: .8rem; margin-right: .4rem; }
.who a { white-space: nowrap; }
table.matrix th[scope=row] { min-width: 0; white-space: nowrap; font-size: .85rem; position: sticky; left: 0;
  background: var(--bg); }
table.matrix th.who { vertical-align: bottom; padding: .3rem .1rem; }
table.matrix th.who span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-size: .8rem; }
table.matrix td.m { text-align: center; padding: .1rem .3rem; font-weight: 600; }
table.matrix td, table.matrix th { line-height: 1.3; }
.md table { display: block; overflow-x: auto; margin: .5rem 0; }
footer { margin-top: 2rem; color: var(--muted); font-size: .85rem; }
.pair { display: grid; grid-template-columns: 1fr; gap: 0 1rem; } .pair > div { min-width: 0; }
@media (min-width: 48rem) { .pair { grid-template-columns: 1fr 1fr; } }
.rule-name { display: none; }
@media (max-width: 40rem) { body { padding: .6rem; font-size: 14px; } th, td { padding: .25rem .35rem; }
  table.standings, table.standings tbody, table.standings tr { display: block; }
  table.standings thead { display: none; }
  table.standings tr { border: 1px solid var(--line); border-radius: 4px; margin: .5rem 0; padding: .3rem; }
  table.standings th, table.standings td { display: block; border: 0; padding: .15rem .2rem; }
  table.standings td { display: inline-block; width: 49%; vertical-align: top; }
  table.standings .api { font-size: .8rem; }
  .rule-name { display: block; font-weight: 600; }
  table.matrix th[scope=row] { white-space: normal; min-width: 8.5rem; max-width: 8.5rem; font-size: .72rem; }
  table.matrix .lvl { display: none; }
  table.matrix td.m { padding: .1rem .15rem; } }
"#;

/// `text` made inert in HTML text and in quoted attribute values ([`crate::report::html::escape`]).
pub(super) fn esc(text: &str) -> String {
    crate::report::html::escape(text)
}

/// One path segment as a file name and a URL segment at once: `[A-Za-z0-9_-]` kept, every other
/// byte (a dot, a slash, `~` itself) as `~XX`, so that two names never meet and none escapes its
/// folder.
pub(super) fn slug(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "~{byte:02X}");
            }
        }
    }
    if out.is_empty() { "~".into() } else { out }
}

/// The path of a case's page, relative to the site's root: `case/<RULE>/<topic>/<name>.html`.
pub(super) fn case_path(id: &str) -> String {
    let segments: Vec<String> = id.split('/').map(slug).collect();
    format!("case/{}.html", segments.join("/"))
}

/// The path of an implementation's page, relative to the site's root.
pub(super) fn implementation_path(folder: &str) -> String {
    format!("implementation/{}.html", slug(folder))
}

/// The prefix that leads from the page at `path` back to the site's root (`../../`).
pub(super) fn root_of(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

/// A whole page: `path` is where it lies in the site, `crumbs` the links before its title in the
/// navigation (relative to the root), `body` its content.
pub(super) fn shell(path: &str, title: &str, crumbs: &[(String, String)], body: &str, footer: &str) -> String {
    let root = root_of(path);
    let mut out = String::with_capacity(body.len() + 2048);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'self'\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", esc(title));
    let _ = writeln!(out, "<link rel=\"stylesheet\" href=\"{}style.css\">", esc(&root));
    out.push_str("</head>\n<body>\n<nav>");
    let _ = write!(out, "<a href=\"{}index.html\">standings</a>", esc(&root));
    for (href, label) in crumbs {
        let _ = write!(out, " › <a href=\"{}{}\">{}</a>", esc(&root), esc(href), esc(label));
    }
    out.push_str("</nav>\n<main>\n");
    out.push_str(body);
    let _ = writeln!(out, "</main>\n<footer>{footer}</footer>\n</body>\n</html>");
    out
}

/// A link from the page at `from` to the site path `to`, its text escaped.
pub(super) fn link(from: &str, to: &str, text: &str) -> String {
    format!("<a href=\"{}{}\">{}</a>", esc(&root_of(from)), esc(to), esc(text))
}

/// A value as JSON in a `<pre>`: on one line when short, one member a line when each is short,
/// pretty-printed otherwise.
pub(super) fn json(value: &crate::json::Value) -> String {
    format!("<pre>{}</pre>", esc(&json_text(value)))
}

/// The text [`json`] shows.
pub(super) fn json_text(value: &crate::json::Value) -> String {
    use crate::json::Value;
    const SHORT: usize = 72;
    let compact = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let whole = compact(value);
    if whole.chars().count() <= SHORT {
        return whole;
    }
    let members: Option<Vec<String>> = match value {
        Value::Array(items) => items.iter().map(|v| Some(compact(v))).collect(),
        Value::Object(map) => {
            map.iter().map(|(k, v)| Some(format!("{}: {}", compact(&Value::String(k.clone())), compact(v)))).collect()
        }
        _ => None,
    };
    match members {
        Some(members) if members.iter().all(|m| m.chars().count() <= SHORT) => {
            let (open, close) = if value.is_array() { ("[", "]") } else { ("{", "}") };
            format!("{open}\n  {}\n{close}", members.join(",\n  "))
        }
        _ => crate::json::diff::pretty(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_is_one_safe_segment_and_names_never_meet() {
        assert_eq!(slug("guessed-step-id"), "guessed-step-id");
        assert_eq!(slug(".."), "~2E~2E");
        assert_eq!(slug("a/b\"<>%~"), "a~2Fb~22~3C~3E~25~7E");
        assert_ne!(slug("a~2F"), slug("a/"));
        assert_eq!(slug(""), "~");
        assert_eq!(case_path("PLAT-162/scenarios/guessed-step-id"), "case/PLAT-162/scenarios/guessed-step-id.html");
        assert_eq!(root_of("case/PLAT-162/scenarios/x.html"), "../../../");
        assert_eq!(root_of("index.html"), "");
    }
}
