//! `client.repositories` (spec §4.2 `RepositoriesClient`): repositories, their files and
//! versions. Snake-case response fields (`created_at`, `content_sha256`, `commit_sha`, …) are
//! camel-cased for the caller.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder};
use super::query::{segment, Query};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

fn repository_path(id: &str) -> CloudResult<String> {
    if id.trim().is_empty() {
        return Err(CloudError::invalid(
            "Invalid repository id. Expected a non-empty string.",
        ));
    }
    Ok(format!("/v1/repositories/{}", segment(id)))
}

/// `create({name})` → `POST /v1/repositories`.
pub fn create(rb: &RequestBuilder, name: &str) -> HttpRequest {
    rb.json(
        Method::Post,
        "/v1/repositories",
        &Query::new(),
        &serde_json::json!({ "name": name }),
    )
}

/// `list({limit, offset})` → `GET /v1/repositories`.
pub fn list(rb: &RequestBuilder, limit: Option<u32>, offset: Option<u32>) -> HttpRequest {
    let query = Query::new().opt("limit", limit).opt("offset", offset);
    rb.request(Method::Get, "/v1/repositories", &query, Body::None)
}

/// `get(id)` → `GET /v1/repositories/<id>`.
pub fn get(rb: &RequestBuilder, id: &str) -> CloudResult<HttpRequest> {
    Ok(rb.request(
        Method::Get,
        &repository_path(id)?,
        &Query::new(),
        Body::None,
    ))
}

/// `delete(id)` → `DELETE /v1/repositories/<id>`.
pub fn delete(rb: &RequestBuilder, id: &str) -> CloudResult<HttpRequest> {
    Ok(rb.request(
        Method::Delete,
        &repository_path(id)?,
        &Query::new(),
        Body::None,
    ))
}

/// `files.list(id, {pathPrefix, depth, ref})` → `GET /v1/repositories/<id>/files`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListFilesOptions {
    /// Only paths under this prefix (`path_prefix`).
    pub path_prefix: Option<String>,
    /// How deep to list.
    pub depth: Option<u32>,
    /// Branch, tag or commit.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
}

/// `GET /v1/repositories/<id>/files`.
pub fn list_files(rb: &RequestBuilder, id: &str, o: &ListFilesOptions) -> CloudResult<HttpRequest> {
    let query = Query::new()
        .opt("path_prefix", o.path_prefix.as_deref())
        .opt("depth", o.depth)
        .opt("ref", o.reference.as_deref());
    let path = format!("{}/files", repository_path(id)?);
    Ok(rb.request(Method::Get, &path, &query, Body::None))
}

/// `files.create(id, {path, content})` → `POST /v1/repositories/<id>/files`.
pub fn create_file(
    rb: &RequestBuilder,
    id: &str,
    path: &str,
    content: &str,
) -> CloudResult<HttpRequest> {
    let route = format!("{}/files", repository_path(id)?);
    let body = serde_json::json!({ "path": path, "content": content });
    Ok(rb.json(Method::Post, &route, &Query::new(), &body))
}

/// `files.read(id, {path, ref?})` → `GET /v1/repositories/<id>/files/content`.
pub fn read_file(
    rb: &RequestBuilder,
    id: &str,
    path: &str,
    reference: Option<&str>,
) -> CloudResult<HttpRequest> {
    let route = format!("{}/files/content", repository_path(id)?);
    let query = Query::new().push("path", path).opt("ref", reference);
    Ok(rb.request(Method::Get, &route, &query, Body::None))
}

/// `files.update` options.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
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

/// `files.update(id, …)` → `POST /v1/repositories/<id>/files/content`.
pub fn update_file(
    rb: &RequestBuilder,
    id: &str,
    o: &UpdateFileOptions,
) -> CloudResult<HttpRequest> {
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
    let route = format!("{}/files/content", repository_path(id)?);
    Ok(rb.json(Method::Post, &route, &Query::new(), &body))
}

/// `files.delete(id, {path})` → `DELETE /v1/repositories/<id>/files/content?path=…`.
pub fn delete_file(rb: &RequestBuilder, id: &str, path: &str) -> CloudResult<HttpRequest> {
    let route = format!("{}/files/content", repository_path(id)?);
    Ok(rb.request(
        Method::Delete,
        &route,
        &Query::new().push("path", path),
        Body::None,
    ))
}

/// `versions.list(id, {path, limit})` → `GET /v1/repositories/<id>/versions`.
pub fn list_versions(
    rb: &RequestBuilder,
    id: &str,
    path: Option<&str>,
    limit: Option<u32>,
) -> CloudResult<HttpRequest> {
    let route = format!("{}/versions", repository_path(id)?);
    let query = Query::new().opt("path", path).opt("limit", limit);
    Ok(rb.request(Method::Get, &route, &query, Body::None))
}

/// `versions.get(id, sha, {path})` → `GET /v1/repositories/<id>/versions/<sha>`.
pub fn get_version(
    rb: &RequestBuilder,
    id: &str,
    sha: &str,
    path: Option<&str>,
) -> CloudResult<HttpRequest> {
    let route = format!("{}/versions/{}", repository_path(id)?, segment(sha));
    Ok(rb.request(
        Method::Get,
        &route,
        &Query::new().opt("path", path),
        Body::None,
    ))
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
pub fn camel_case(value: Value) -> Value {
    match value {
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, v)| (camel(&k), camel_case(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(list) => Value::Array(list.into_iter().map(camel_case).collect()),
        other => other,
    }
}

/// A response body, camel-cased.
pub fn parse(response: HttpResponse<'_>) -> CloudResult<Value> {
    let body = response.ok()?;
    if body.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_str(body)
        .map(camel_case)
        .map_err(|_| CloudError::bad_response("Invalid Cloud repositories response."))
}

/// `list()` result: `{repositories, hasNextPage}` (from `has_next_page`).
pub fn parse_list(response: HttpResponse<'_>) -> CloudResult<Value> {
    let value = parse(response)?;
    let repositories = value
        .get("repositories")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    let has_next_page = value
        .get("hasNextPage")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(serde_json::json!({ "repositories": repositories, "hasNextPage": has_next_page }))
}

/// `versions.list()` result: an array, or the `commits` / `versions` member of an object.
pub fn parse_versions(response: HttpResponse<'_>) -> CloudResult<Vec<Value>> {
    match parse(response)? {
        Value::Array(list) => Ok(list),
        Value::Object(mut o) => match o.remove("commits").or_else(|| o.remove("versions")) {
            Some(Value::Array(list)) => Ok(list),
            _ => Ok(Vec::new()),
        },
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    use serde_json::json;

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
            list_files(&rb, "repo-1", &o).unwrap().url,
            format!("{base}/files?path_prefix=src%2F&depth=2&ref=main")
        );
        let read = read_file(&rb, "repo-1", "a b.txt", None).unwrap();
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
        )
        .unwrap();
        assert_eq!(update.body, Body::Json(r#"{"path":"a","new_path":"b","precondition":{"type":"content_sha256","content_sha256":"abc"}}"#.into()));
        let delete = delete_file(&rb, "repo-1", "a").unwrap();
        assert_eq!(
            (delete.method, delete.url.as_str()),
            (
                Method::Delete,
                format!("{base}/files/content?path=a").as_str()
            )
        );
        assert_eq!(
            get(&rb, "").unwrap_err().message,
            "Invalid repository id. Expected a non-empty string."
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
            json!({"repositories": [{"id": "r", "createdAt": "t"}], "hasNextPage": true})
        );
        let file = parse(HttpResponse::new(
            200,
            r#"{"content_sha256":"x","commit_sha":"y"}"#,
        ))
        .unwrap();
        assert_eq!(file, json!({"contentSha256": "x", "commitSha": "y"}));
        let versions = parse_versions(HttpResponse::new(
            200,
            r#"{"commits":[{"commit_sha":"1"}]}"#,
        ))
        .unwrap();
        assert_eq!(versions, vec![json!({"commitSha": "1"})]);
        assert_eq!(
            parse_versions(HttpResponse::new(200, "[]")).unwrap(),
            Vec::<Value>::new()
        );
    }
}
