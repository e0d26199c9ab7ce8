//! The tool calls a model wrote into its text, as the extensions' XML
//! protocol has them (`<read_file>\n<path>src/a.ts</path>\n</read_file>`,
//! before native tool calls): what the extensions' own parser
//! (`parseAssistantMessageV2`) finds — a known tool's opening tag, its
//! parameters' tags inside (a `content` or `diff` closed by its last closing
//! tag, as theirs does, so a file's text may hold tags), and its closing
//! tag; a call the text cuts off keeps the parameters it got.

use serde_json::{Map, Value};

/// The tools whose tags are calls: Cline's, Roo Code's and Kilo Code's.
const TOOLS: &[&str] = &[
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "apply_diff",
    "insert_content",
    "search_and_replace",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "codebase_search",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "attempt_completion",
    "plan_mode_respond",
    "act_mode_respond",
    "new_task",
    "switch_mode",
    "update_todo_list",
    "fetch_instructions",
    "load_mcp_documentation",
    "web_fetch",
    "web_search",
    "condense",
    "summarize_task",
    "report_bug",
    "new_rule",
    "edit_file",
    "run_slash_command",
];

/// Parameters whose value may hold tags: closed by their last closing tag.
const WHOLE: &[&str] = &["content", "diff"];

/// A piece of a model's text: words, or a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Said(String),
    Call { tool: String, params: Map<String, Value> },
}

/// The known tool whose opening tag `rest` starts with (after its `<`).
fn tool_at(rest: &str) -> Option<&'static str> {
    TOOLS.iter().copied().find(|t| rest.strip_prefix(t).is_some_and(|r| r.starts_with('>')))
}

/// A parameter's opening tag at the head of `rest` (after its `<`).
fn param_at(rest: &str) -> Option<&str> {
    let end = rest.find('>')?;
    let name = &rest[..end];
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')).then_some(name)
}

/// `text` split into what was said and the calls in it, in order.
pub fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut said = String::new();
    let mut pos = 0;
    while let Some(i) = text[pos..].find('<').map(|i| pos + i) {
        let Some(tool) = tool_at(&text[i + 1..]) else {
            said.push_str(&text[pos..=i]);
            pos = i + 1;
            continue;
        };
        said.push_str(&text[pos..i]);
        if !said.trim().is_empty() {
            out.push(Piece::Said(std::mem::take(&mut said).trim().to_string()));
        }
        said.clear();
        let (params, end) = call(text, i + tool.len() + 2, tool);
        out.push(Piece::Call {
            tool: tool.to_string(),
            params,
        });
        pos = end;
    }
    said.push_str(&text[pos..]);
    if !said.trim().is_empty() {
        out.push(Piece::Said(said.trim().to_string()));
    }
    out
}

/// A call's parameters from `at` (after its opening tag), and where it ends.
fn call(text: &str, mut at: usize, tool: &str) -> (Map<String, Value>, usize) {
    let close = format!("</{tool}>");
    let mut params = Map::new();
    while let Some(j) = text[at..].find('<').map(|j| at + j) {
        if text[j..].starts_with(&close) {
            return (params, j + close.len());
        }
        let Some(name) = param_at(&text[j + 1..]) else {
            at = j + 1;
            continue;
        };
        let start = j + name.len() + 2;
        let end_tag = format!("</{name}>");
        let found = if WHOLE.contains(&name) { text[start..].rfind(&end_tag) } else { text[start..].find(&end_tag) };
        let (value, next) = match found {
            Some(k) => (&text[start..start + k], start + k + end_tag.len()),
            None => (&text[start..], text.len()),
        };
        let value = if WHOLE.contains(&name) {
            let v = value.strip_prefix('\n').unwrap_or(value);
            v.strip_suffix('\n').unwrap_or(v).to_string()
        } else {
            value.trim().to_string()
        };
        params.insert(name.to_string(), Value::String(value));
        at = next;
    }
    (params, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, params: &[(&str, &str)]) -> Piece {
        Piece::Call {
            tool: tool.into(),
            params: params.iter().map(|(k, v)| (k.to_string(), Value::from(*v))).collect(),
        }
    }

    #[test]
    fn words_and_calls_in_order() {
        let text = "Let me look.\n\n<read_file>\n<path>src/a.ts</path>\n</read_file>";
        assert_eq!(pieces(text), [Piece::Said("Let me look.".into()), call("read_file", &[("path", "src/a.ts")])]);
        // A file's text may hold tags, its own closing tag too.
        let text = "<write_to_file>\n<path>x.html</path>\n<content>\n<p>hi</p>\n</content>\n</content>\n</write_to_file>";
        assert_eq!(pieces(text), [call("write_to_file", &[("path", "x.html"), ("content", "<p>hi</p>\n</content>")])]);
        // Not a known tool: words; a call cut off keeps what it got.
        let text = "a <b>bold</b> claim <execute_command>\n<command>ls</command>\n<requires_appro";
        assert_eq!(
            pieces(text),
            [Piece::Said("a <b>bold</b> claim".into()), call("execute_command", &[("command", "ls")])]
        );
    }
}
