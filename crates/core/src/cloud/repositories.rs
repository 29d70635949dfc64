//! `client.repositories` (spec §4.2 `RepositoriesClient`): repositories, their files and
//! versions. Snake-case response fields (`created_at`, `content_sha256`, `commit_sha`, …) are
//! camel-cased for the caller.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use crate::json::{self, Object, Value};
use serde::Serialize;

/// The repository's route (the wrapper checked the id: lib/cloud.js).
fn repository_path(id: &str) -> String {
    format!("/v1/repositories/{}", segment(id))
}

/// `create({name})` → `POST /v1/repositories`.
pub fn create(rb: &RequestBuilder, name: &str) -> HttpRequest {
    #[derive(Serialize)]
    struct Create<'a> {
        name: &'a str,
    }
    rb.json(
        Method::Post,
        "/v1/repositories",
        &Query::new(),
        &Create { name },
    )
}

/// A JSON options argument of the facades (`what` names it in the error).
fn options<'t>(text: &'t str, what: &str) -> CloudResult<Object<'t>> {
    Object::parse(text).ok_or_else(|| CloudError::invalid(format!("Invalid {what}.")))
}

/// An optional string member; another type is invalid.
fn opt_text(o: &Object<'_>, key: &str, what: &str) -> CloudResult<Option<String>> {
    o.get(key)
        .clone()
        .opt_str()
        .map(|s| s.map(String::from))
        .map_err(|_| CloudError::invalid(format!("Invalid {what}.")))
}

/// `list({limit, offset})` → `GET /v1/repositories`.
pub fn list(rb: &RequestBuilder, limit: Option<u32>, offset: Option<u32>) -> HttpRequest {
    let query = Query::new().opt("limit", limit).opt("offset", offset);
    rb.request(Method::Get, "/v1/repositories", &query, Body::None)
}

/// `get(id)` → `GET /v1/repositories/<id>`.
pub fn get(rb: &RequestBuilder, id: &str) -> HttpRequest {
    rb.request(Method::Get, &repository_path(id), &Query::new(), Body::None)
}

/// `delete(id)` → `DELETE /v1/repositories/<id>`.
pub fn delete(rb: &RequestBuilder, id: &str) -> HttpRequest {
    rb.request(
        Method::Delete,
        &repository_path(id),
        &Query::new(),
        Body::None,
    )
}

/// `files.list(id, {pathPrefix, depth, ref})` → `GET /v1/repositories/<id>/files`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilesOptions {
    /// Only paths under this prefix (`path_prefix`).
    pub path_prefix: Option<String>,
    /// How deep to list.
    pub depth: Option<u32>,
    /// Branch, tag or commit.
    pub reference: Option<String>,
}

impl ListFilesOptions {
    /// Reads `{pathPrefix?, depth?, ref?}` (JSON).
    pub fn from_json(text: &str) -> CloudResult<Self> {
        const WHAT: &str = "repositories.files.list() options";
        let o = options(text, WHAT)?;
        let depth = match o.get("depth").opt_f64() {
            Ok(None) => None,
            Ok(Some(n)) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => {
                Some(n as u32)
            }
            _ => return Err(CloudError::invalid(format!("Invalid {WHAT}."))),
        };
        Ok(ListFilesOptions {
            path_prefix: opt_text(&o, "pathPrefix", WHAT)?,
            depth,
            reference: opt_text(&o, "ref", WHAT)?,
        })
    }
}

/// `GET /v1/repositories/<id>/files`.
pub fn list_files(rb: &RequestBuilder, id: &str, o: &ListFilesOptions) -> HttpRequest {
    let query = Query::new()
        .opt("path_prefix", o.path_prefix.as_deref())
        .opt("depth", o.depth)
        .opt("ref", o.reference.as_deref());
    let path = format!("{}/files", repository_path(id));
    rb.request(Method::Get, &path, &query, Body::None)
}

/// `files.create(id, {path, content})` → `POST /v1/repositories/<id>/files`.
pub fn create_file(rb: &RequestBuilder, id: &str, path: &str, content: &str) -> HttpRequest {
    #[derive(Serialize)]
    struct Create<'a> {
        path: &'a str,
        content: &'a str,
    }
    let route = format!("{}/files", repository_path(id));
    rb.json(
        Method::Post,
        &route,
        &Query::new(),
        &Create { path, content },
    )
}

/// `files.read(id, {path, ref?})` → `GET /v1/repositories/<id>/files/content`.
pub fn read_file(
    rb: &RequestBuilder,
    id: &str,
    path: &str,
    reference: Option<&str>,
) -> HttpRequest {
    let route = format!("{}/files/content", repository_path(id));
    let query = Query::new().push("path", path).opt("ref", reference);
    rb.request(Method::Get, &route, &query, Body::None)
}

/// `files.update` options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpdateFileOptions {
    /// The file.
    pub path: String,
    /// New content.
    pub content: Option<String>,
    /// Rename to (`new_path`).
    pub new_path: Option<String>,
    /// Only if the current content has this SHA-256 (`{type:"content_sha256", content_sha256}`).
    pub precondition: Option<String>,
}

impl UpdateFileOptions {
    /// Reads `{path, content?, newPath?, precondition?}` (JSON; `path` a string).
    pub fn from_json(text: &str) -> CloudResult<Self> {
        const WHAT: &str = "repositories.files.update() options";
        let o = options(text, WHAT)?;
        Ok(UpdateFileOptions {
            path: opt_text(&o, "path", WHAT)?
                .ok_or_else(|| CloudError::invalid(format!("Invalid {WHAT}.")))?,
            content: opt_text(&o, "content", WHAT)?,
            new_path: opt_text(&o, "newPath", WHAT)?,
            precondition: opt_text(&o, "precondition", WHAT)?,
        })
    }
}

/// `files.update(id, …)` → `POST /v1/repositories/<id>/files/content`.
pub fn update_file(rb: &RequestBuilder, id: &str, o: &UpdateFileOptions) -> HttpRequest {
    #[derive(Serialize)]
    struct Precondition<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        content_sha256: &'a str,
    }
    #[derive(Serialize)]
    struct Update<'a> {
        path: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        content: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        new_path: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        precondition: Option<Precondition<'a>>,
    }
    let body = Update {
        path: &o.path,
        content: o.content.as_deref(),
        new_path: o.new_path.as_deref(),
        precondition: o.precondition.as_deref().map(|sha| Precondition {
            kind: "content_sha256",
            content_sha256: sha,
        }),
    };
    let route = format!("{}/files/content", repository_path(id));
    rb.json(Method::Post, &route, &Query::new(), &body)
}

/// `files.delete(id, {path})` → `DELETE /v1/repositories/<id>/files/content?path=…`.
pub fn delete_file(rb: &RequestBuilder, id: &str, path: &str) -> HttpRequest {
    let route = format!("{}/files/content", repository_path(id));
    rb.request(
        Method::Delete,
        &route,
        &Query::new().push("path", path),
        Body::None,
    )
}

/// `versions.list(id, {path, limit})` → `GET /v1/repositories/<id>/versions`.
pub fn list_versions(
    rb: &RequestBuilder,
    id: &str,
    path: Option<&str>,
    limit: Option<u32>,
) -> HttpRequest {
    let route = format!("{}/versions", repository_path(id));
    let query = Query::new().opt("path", path).opt("limit", limit);
    rb.request(Method::Get, &route, &query, Body::None)
}

/// `versions.get(id, sha, {path})` → `GET /v1/repositories/<id>/versions/<sha>`.
pub fn get_version(rb: &RequestBuilder, id: &str, sha: &str, path: Option<&str>) -> HttpRequest {
    let route = format!("{}/versions/{}", repository_path(id), segment(sha));
    rb.request(
        Method::Get,
        &route,
        &Query::new().opt("path", path),
        Body::None,
    )
}

/// `snake_case` → `camelCase`.
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Camel-cases every object key, recursively (response values are passed through otherwise).
pub fn camel_case(value: Value<'_>) -> Value<'_> {
    match value {
        Value::Object(o) => {
            let mut out = Object::new();
            for (key, value) in o.into_members() {
                out.push(camel(&key), camel_case(value));
            }
            Value::Object(out)
        }
        Value::Array(list) => Value::Array(list.into_iter().map(camel_case).collect()),
        other => other,
    }
}

/// A response body, camel-cased (`null` for an empty body).
fn parse_value(response: HttpResponse<'_>) -> CloudResult<Value<'_>> {
    let body = response.ok()?;
    if body.trim().is_empty() {
        return Ok(Value::Null);
    }
    json::parse(body)
        .map(camel_case)
        .ok_or_else(|| CloudError::bad_response("Invalid Cloud repositories response."))
}

/// A response body, camel-cased, as JSON text.
pub fn parse(response: HttpResponse<'_>) -> CloudResult<String> {
    parse_value(response).map(|value| json::to_string(&value))
}

/// `list()` result: `{repositories, hasNextPage}` (from `has_next_page`), as JSON text.
pub fn parse_list(response: HttpResponse<'_>) -> CloudResult<String> {
    let mut value = parse_value(response)?;
    let (repositories, has_next_page) = match &mut value {
        Value::Object(o) => (o.take("repositories"), o.bool("hasNextPage")),
        _ => (Value::Absent, None),
    };
    let mut out = Object::new();
    out.push(
        "repositories",
        repositories.non_null().unwrap_or(Value::Array(Vec::new())),
    );
    out.push("hasNextPage", Value::Bool(has_next_page == Some(true)));
    Ok(json::to_string(&out))
}

/// `versions.list()` result: an array, or the `commits` / `versions` member of an object, as
/// JSON text.
pub fn parse_versions(response: HttpResponse<'_>) -> CloudResult<String> {
    let list = match parse_value(response)? {
        Value::Array(list) => list,
        Value::Object(mut o) => match (o.take("commits"), o.take("versions")) {
            (Value::Array(list), _) | (_, Value::Array(list)) => list,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    Ok(json::to_string(&list))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    #[test]
    fn file_routes_and_bodies() {
        let rb = builder();
        let base = "https://api.letta.com/v1/repositories/repo-1";
        let o = ListFilesOptions {
            path_prefix: Some("src/".into()),
            depth: Some(2),
            reference: Some("main".into()),
        };
        assert_eq!(
            list_files(&rb, "repo-1", &o).url,
            format!("{base}/files?path_prefix=src%2F&depth=2&ref=main")
        );
        let read = read_file(&rb, "repo-1", "a b.txt", None);
        assert_eq!(read.url, format!("{base}/files/content?path=a%20b.txt"));
        let update = update_file(
            &rb,
            "repo-1",
            &UpdateFileOptions {
                path: "a".into(),
                content: None,
                new_path: Some("b".into()),
                precondition: Some("abc".into()),
            },
        );
        assert_eq!(update.body, Body::Json(r#"{"path":"a","new_path":"b","precondition":{"type":"content_sha256","content_sha256":"abc"}}"#.into()));
        let delete = delete_file(&rb, "repo-1", "a");
        assert_eq!(
            (delete.method, delete.url.as_str()),
            (
                Method::Delete,
                format!("{base}/files/content?path=a").as_str()
            )
        );
    }

    #[test]
    fn responses_are_camel_cased_and_lists_normalized() {
        let list = parse_list(HttpResponse::new(
            200,
            r#"{"repositories":[{"id":"r","created_at":"t"}],"has_next_page":true}"#,
        ))
        .unwrap();
        assert_eq!(
            list,
            r#"{"repositories":[{"id":"r","createdAt":"t"}],"hasNextPage":true}"#
        );
        let file = parse(HttpResponse::new(
            200,
            r#"{"content_sha256":"x","commit_sha":"y"}"#,
        ))
        .unwrap();
        assert_eq!(file, r#"{"contentSha256":"x","commitSha":"y"}"#);
        let versions = parse_versions(HttpResponse::new(
            200,
            r#"{"commits":[{"commit_sha":"1"}]}"#,
        ))
        .unwrap();
        assert_eq!(versions, r#"[{"commitSha":"1"}]"#);
        assert_eq!(parse_versions(HttpResponse::new(200, "[]")).unwrap(), "[]");
        assert_eq!(parse(HttpResponse::new(200, "")).unwrap(), "null");
        let o = ListFilesOptions::from_json(r#"{"pathPrefix":"src/","ref":"main"}"#).unwrap();
        assert_eq!(
            (o.path_prefix.as_deref(), o.depth, o.reference.as_deref()),
            (Some("src/"), None, Some("main"))
        );
        assert!(UpdateFileOptions::from_json(r#"{"content":"c"}"#).is_err());
    }
}
