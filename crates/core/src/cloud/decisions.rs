//! `POST /v1/alpha/decisions`: Letta Cloud's experimental classifier (`client.alpha.decisions`).
//! The wrapper (`pkg-template/lib/decisions.js`) checks the request and builds its body, and
//! checks the answer: those checks look at JavaScript values (cycles, `undefined`, holes) that
//! cannot cross as they are. Here is the route, sent once: the reference makes no retries.

use super::http::{Body, HttpRequest, RequestBuilder};
use super::query::Query;

/// The decisions call with the wrapper's JSON body.
pub fn evaluate_request(rb: &RequestBuilder, body_json: String) -> HttpRequest {
    rb.request(
        super::http::Method::Post,
        "/v1/alpha/decisions",
        &Query::new(),
        Body::Json(body_json),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    #[test]
    fn the_route_posts_the_body_as_json_with_the_key() {
        let request = evaluate_request(&builder(), r#"{"state":"s"}"#.to_owned());
        assert_eq!(request.url, "https://api.letta.com/v1/alpha/decisions");
        assert_eq!(request.method.as_str(), "POST");
        assert_eq!(request.body, Body::Json(r#"{"state":"s"}"#.to_owned()));
        assert_eq!(request.header("authorization"), Some("Bearer k"));
        assert_eq!(request.header("content-type"), Some("application/json"));
    }
}
