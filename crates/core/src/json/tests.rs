use super::*;

#[test]
fn reads_members_by_kind() {
    let o = Object::parse(
        r#"{"s":"a\"b","n":-1.5e2,"t":true,"z":null,"o":{"x":1},"a":[1,"2"],"p":"plain"}"#,
    )
    .unwrap();
    assert_eq!(o.str("s").as_deref(), Some("a\"b"));
    assert!(matches!(o.str("p"), Some(Cow::Borrowed("plain"))));
    assert_eq!(o.f64("n"), Some(-150.0));
    assert_eq!(o.bool("t"), Some(true));
    assert!(matches!(o.get("z"), Value::Null));
    assert!(matches!(o.get("missing"), Value::Absent));
    assert_eq!(o.object("o").unwrap().f64("x"), Some(1.0));
    assert_eq!(o.array("a").unwrap().len(), 2);
    assert!(o.str("n").is_none(), "a number is not a string");
}

#[test]
fn nested_strings_borrow_unless_escaped() {
    let o = Object::parse(r#"{"o":{"a":["x",{"b":"y\n"}]}}"#).unwrap();
    let items = o.object("o").unwrap().array("a").unwrap();
    assert!(matches!(&items[0], Value::String(Cow::Borrowed("x"))));
    let b = items[1].as_object().unwrap().get("b");
    assert!(matches!(b, Value::String(Cow::Owned(s)) if s == "y\n"));
}

#[test]
fn strict_reads_report_wrong_types() {
    let o = Object::parse(r#"{"s":"x","n":3,"z":null,"o":{}}"#).unwrap();
    assert!(o.get("n").clone().opt_str().is_err());
    assert!(o.get("s").opt_f64().is_err());
    assert!(matches!(o.get("z").clone().opt_str(), Ok(None)));
    assert!(o.get("absent").opt_bool() == Ok(None));
    assert!(o.get("n").opt_f64() == Ok(Some(3.0)));
    assert!(o.get("o").clone().opt_object().is_ok_and(|o| o.is_some()));
    assert!(o.get("s").clone().opt_object().is_err());
}

#[test]
fn last_duplicate_wins_as_in_json_parse() {
    let mut o = Object::parse(r#"{"k":1,"k":2}"#).unwrap();
    assert_eq!(o.f64("k"), Some(2.0));
    assert_eq!(o.take("k").as_f64(), Some(2.0));
    assert!(matches!(o.get("k"), Value::Absent));
    assert!(o.has("k"));
    assert!(matches!(o.take("other"), Value::Absent));
}

#[test]
fn rejects_what_is_not_an_object() {
    for text in [
        "[]",
        "1",
        "\"s\"",
        "null",
        "{",
        "{\"a\":}",
        "",
        "{} x",
        "{\"a\":-}",
    ] {
        assert!(Object::parse(text).is_none(), "{text}");
    }
    assert!(parse_array("{}").is_none());
    assert_eq!(parse_array("[1, {\"a\":2}]").unwrap().len(), 2);
    assert!(parse("  true ").is_some());
}

#[test]
fn escaped_keys_and_strings_decode() {
    let o = Object::parse(r#"{"ty\u0070e":"caf\u00e9 \ud83d\ude00"}"#).unwrap();
    assert_eq!(o.str("type").as_deref(), Some("café 😀"));
}

#[test]
fn lone_surrogates_become_replacement_characters() {
    let text = r#"{"a":"x\ud800y","b":["\udc00",2],"c":"ok \\ud800","d":"\ud83d\ude00","e":"\ude00\ud83d"}"#;
    let o = Object::parse(text).expect("the document stays readable");
    assert_eq!(o.str("a").as_deref(), Some("x\u{FFFD}y"));
    assert_eq!(o.array("b").unwrap()[0].as_str(), Some("\u{FFFD}"));
    assert_eq!(
        o.str("c").as_deref(),
        Some("ok \\ud800"),
        "an escaped backslash is not an escape"
    );
    assert_eq!(o.str("d").as_deref(), Some("😀"), "a pair stays a pair");
    assert_eq!(
        o.str("e").as_deref(),
        Some("\u{FFFD}\u{FFFD}"),
        "reversed halves are both lone"
    );
    assert_eq!(
        Object::parse(r#"{"\ud800":1}"#).unwrap().f64("\u{FFFD}"),
        Some(1.0)
    );
    // Other errors stay errors.
    assert!(Object::parse(r#"{"a":"\ud800","b":tru}"#).is_none());
    assert!(Object::parse(r#"{"a":"\ud800\x"}"#).is_none());
    assert!(Object::parse(r#"{"a":01}"#).is_none());
    assert!(
        Object::parse(r#"{"a":1e400}"#).is_none(),
        "beyond f64: rejected"
    );
}

#[test]
fn writes_members_in_document_order() {
    let text = r#"{"z":1,"a":[true,null,-2,0.5,1e21,"q\"\n"],"o":{},"k":1,"k":2.0}"#;
    let value = parse(text).unwrap();
    assert_eq!(
        to_string(&value),
        r#"{"z":1,"a":[true,null,-2,0.5,1e+21,"q\"\n"],"o":{},"k":1,"k":2}"#
    );
    assert_eq!(to_string(&Value::Number(-0.0)), "0");
    assert_eq!(to_string(&Value::Number(f64::NAN)), "null");
    assert_eq!(
        to_string(&Value::Number(1_700_000_000_000.0)),
        "1700000000000"
    );
    let owned = value.to_static();
    assert_eq!(to_string(&owned), to_string(&parse(text).unwrap()));
}

#[test]
fn deep_nesting_fails_without_overflowing() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(parse(&deep).is_none());
}

#[test]
fn content_text_follows_the_content_rule() {
    let text = |json: &str| content_text(&parse(json).unwrap()).map(Cow::into_owned);
    assert_eq!(text(r#""s""#).as_deref(), Some("s"));
    assert_eq!(text(r#"{"text":"t"}"#).as_deref(), Some("t"));
    assert_eq!(text(r#"{"text":""}"#).as_deref(), Some(""));
    assert_eq!(
        text(r#"["a",{"text":"b"},{"text":1},[],"c"]"#).as_deref(),
        Some("abc")
    );
    let one = parse(r#"[{"type":"text","text":"one"}]"#).unwrap();
    assert!(matches!(content_text(&one), Some(Cow::Borrowed("one"))));
    for none in ["[]", r#"[""]"#, "null", "1", "{}", r#"[{"x":1}]"#] {
        assert_eq!(text(none), None, "{none}");
    }
}
