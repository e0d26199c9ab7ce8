//! JavaScript number semantics the host's presenters rely on.
//!
//! The host computes views in JavaScript: numbers are IEEE doubles, template
//! literals format them with `Number.prototype.toString`, and views reach the
//! wire through `JSON.stringify`. These helpers reproduce both so that a title
//! such as `Read f.py (2 - 4)` or a `line`/`exitCode` field comes out exactly
//! as the host would have written it.

use serde_json::Value;

/// `String(x)` for a JS number: shortest round-trip digits, plain notation for
/// decimal exponents in (-7, 21], exponential (`1e+21`, `1.5e-7`) otherwise.
pub(super) fn number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits, like JS: `d.ddde±x`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if x < 0.0 { "-" } else { "" };
    let k = digits.len() as i32;
    let n = exponent + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let (first, rest) = digits.split_at(1);
        let e_sign = if n - 1 < 0 { '-' } else { '+' };
        let dot = if rest.is_empty() { "" } else { "." };
        format!("{first}{dot}{rest}e{e_sign}{}", (n - 1).abs())
    };
    format!("{sign}{body}")
}

/// A JS number as `JSON.parse(JSON.stringify(x))` reads back into serde: an
/// integer when the host would print plain integer digits that fit, a float
/// otherwise (`null` for a non-finite number, as `JSON.stringify` writes).
pub(super) fn number(x: f64) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    // `JSON.stringify` writes a finite number exactly as `String(x)` does.
    serde_json::from_str(&number_to_string(x)).unwrap_or(Value::Null)
}

/// A JS number as a card reads it where a count or a line is due: the
/// integer the host would write, if it writes one that fits.
pub(super) fn count(x: f64) -> Option<u64> {
    number(x).as_u64()
}

/// A JS number as a card reads it where an exit code is due.
pub(super) fn integer(x: f64) -> Option<i64> {
    number(x).as_i64()
}

/// `Number.isInteger(v)` on a JSON value.
pub(super) fn is_integer(value: &Value) -> bool {
    value
        .as_f64()
        .is_some_and(|n| n.is_finite() && n.fract() == 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_number_to_string() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (2.0, "2"),
            (-3.0, "-3"),
            (2.5, "2.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (0.001, "0.001"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (123_456_789.0, "123456789"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.25e22, "1.25e+22"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
        ];
        for &(x, want) in cases {
            assert_eq!(number_to_string(x), want, "{x:?}");
        }
    }

    #[test]
    fn numbers_read_back_like_serde() {
        assert_eq!(number(2.0), serde_json::json!(2));
        assert_eq!(number(-2.0), serde_json::json!(-2));
        assert_eq!(number(2.5), serde_json::json!(2.5));
        assert_eq!(number(1e300), serde_json::json!(1e300));
        assert_eq!(number(f64::INFINITY), Value::Null);
        // JS prints 2^63 with shortest digits, not exactly.
        assert_eq!(
            number(9_223_372_036_854_775_808.0),
            serde_json::json!(9_223_372_036_854_776_000_u64)
        );
        assert!(is_integer(&serde_json::json!(3.0)));
        assert!(!is_integer(&serde_json::json!(3.5)));
        assert!(!is_integer(&serde_json::json!("3")));
    }
}
