//! Headers, `<status> <body>` errors and the retry rule of spec §4.1.

use super::*;
use crate::cloud::config::CloudEnv;
use serde_json::json;

fn builder(options: serde_json::Value) -> RequestBuilder {
    RequestBuilder::new(
        &CloudConfig::from_options(&test_support::object(options), &CloudEnv::default()).unwrap(),
    )
}

#[test]
fn requests_carry_the_key_the_source_and_the_callers_headers() {
    let rb = builder(json!({"apiKey": "sk-1", "headers": {"x-project-id": "p-1"}}));
    let request = rb.json(Method::Post, "/v1/agents/", &Query::new(), &json!({"a": 1}));
    assert_eq!(request.url, "https://api.letta.com/v1/agents/");
    assert_eq!(request.header("authorization"), Some("Bearer sk-1"));
    assert_eq!(request.header("x-letta-source"), Some("letta-agent-sdk"));
    assert_eq!(request.header("x-project-id"), Some("p-1"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.body, Body::Json(r#"{"a":1}"#.into()));
    let get = rb.request(Method::Get, "/v1/models/", &Query::new(), Body::None);
    assert_eq!(get.header("content-type"), None);
}

#[test]
fn the_callers_source_header_wins_in_any_case() {
    let rb = builder(json!({"apiKey": "k", "headers": {"x-LETTA-source": "my-app"}}));
    let request = rb.request(Method::Get, "/v1/models/", &Query::new(), Body::None);
    let sources: Vec<_> = request
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("x-letta-source"))
        .collect();
    assert_eq!(sources.len(), 1);
    assert_eq!(sources[0].1, "my-app");
}

#[test]
fn a_header_supplied_bearer_is_reused() {
    let rb = builder(json!({"headers": {"Authorization": "Bearer from-header"}}));
    let request = rb.request(Method::Get, "/v1/environments", &Query::new(), Body::None);
    assert_eq!(request.header("Authorization"), Some("Bearer from-header"));
    let keyless = builder(json!({}));
    assert_eq!(
        keyless
            .request(Method::Get, "/x", &Query::new(), Body::None)
            .header("authorization"),
        None
    );
}

#[test]
fn error_messages_are_status_then_body() {
    let e = api_error(500, r#"{"error":"recompile failed"}"#);
    assert_eq!(
        (e.message.as_str(), e.status, e.name()),
        (r#"500 {"error":"recompile failed"}"#, Some(500), "APIError")
    );
    assert_eq!(
        api_error(404, r#"{"message":"Agent not found"}"#).message,
        "404 Agent not found"
    );
    assert_eq!(
        api_error(400, r#"{ "z": 1,  "a": [true] }"#).message,
        r#"400 {"z":1,"a":[true]}"#,
        "document order kept"
    );
    assert_eq!(api_error(502, "Bad Gateway").message, "502 Bad Gateway");
    assert_eq!(
        api_error(422, r#"{"message":{"field":"x"}}"#).message,
        r#"422 {"field":"x"}"#
    );
    assert_eq!(api_error(422, r#"{"message":7}"#).message, "422 7");
    assert_eq!(
        api_error(422, r#"{"message":"","code":1}"#).message,
        r#"422 {"message":"","code":1}"#
    );
    assert_eq!(api_error(503, "").message, "503 status code (no body)");
    assert_eq!(HttpResponse::new(201, "{}").ok(), Ok("{}"));
    assert_eq!(
        HttpResponse::new(401, "nope").ok().unwrap_err().status,
        Some(401)
    );
}

#[test]
fn retries_follow_the_generated_client() {
    assert_eq!(retry_delay_ms(500, None, None, 0, 0.0), Some(500));
    assert_eq!(retry_delay_ms(429, None, None, 1, 0.0), Some(1000));
    assert_eq!(
        retry_delay_ms(408, None, None, 1, 1.0),
        Some(750),
        "jitter takes off up to 25 %"
    );
    assert_eq!(
        retry_delay_ms(409, None, None, 2, 0.0),
        None,
        "two retries at most"
    );
    assert_eq!(retry_delay_ms(404, None, None, 0, 0.0), None);
    assert_eq!(retry_delay_ms(400, Some("true"), None, 0, 0.0), Some(500));
    assert_eq!(retry_delay_ms(503, Some("false"), None, 0, 0.0), None);
    assert_eq!(retry_delay_ms(503, None, Some(1234.0), 0, 0.0), Some(1234));
}
