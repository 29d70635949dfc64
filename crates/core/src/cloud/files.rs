//! Sandbox file transfer (spec §4.8, `session.sandbox`, managed sandboxes only): upload
//! (`multipart/form-data`, field `file`) and download (binary) under `/root/downloads`.

use super::error::{CloudError, CloudResult};
use super::http::{Body, HttpRequest, HttpResponse, Method, RequestBuilder, ResponseKind};
use super::query::{segment, Query};
use crate::json::{Object, Value};
use serde::Serialize;

/// With an explicit computer there is no sandbox to transfer files with.
pub fn computer_error() -> CloudError {
    CloudError::invalid("Sandbox file transfer requires an SDK-managed Cloud sandbox.")
}

/// `uploadFiles(files)`: checks the names (at least one file, none blank) and builds
/// `POST /v1/sandboxes/<id>/files`; the transport appends each file under `file`.
pub fn upload(
    rb: &RequestBuilder,
    sandbox_id: &str,
    names: &[Option<&str>],
) -> CloudResult<HttpRequest> {
    if names.is_empty() {
        return Err(CloudError::invalid(
            "Cloud sandbox file upload requires at least one file.",
        ));
    }
    if let Some(index) = names
        .iter()
        .position(|n| n.is_none_or(|n| n.trim().is_empty()))
    {
        return Err(CloudError::invalid(format!(
            "Invalid Cloud sandbox upload file at index {index}."
        )));
    }
    let path = format!("/v1/sandboxes/{}/files", segment(sandbox_id));
    Ok(rb.request(
        Method::Post,
        &path,
        &Query::new(),
        Body::Multipart { field: "file" },
    ))
}

/// `downloadFile(path)` → `GET /v1/sandboxes/<id>/files?path=…`, read as bytes.
pub fn download(rb: &RequestBuilder, sandbox_id: &str, path: &str) -> CloudResult<HttpRequest> {
    if path.trim().is_empty() {
        return Err(CloudError::invalid(
            "Invalid Cloud sandbox file path. Expected a non-empty string.",
        ));
    }
    let route = format!("/v1/sandboxes/{}/files", segment(sandbox_id));
    let mut request = rb.request(
        Method::Get,
        &route,
        &Query::new().push("path", path),
        Body::None,
    );
    request.response = ResponseKind::Binary;
    super::http::set_header(&mut request.headers, "Accept", "*/*");
    Ok(request)
}

/// One uploaded file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    /// Where it landed in the sandbox.
    pub path: String,
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime_type: String,
    /// Size in bytes.
    pub size: u64,
}

/// `{files: [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UploadResult {
    /// The files.
    pub files: Vec<UploadedFile>,
}

/// Validates the upload response (`size` a safe non-negative integer).
pub fn parse_upload(response: HttpResponse<'_>) -> CloudResult<UploadResult> {
    let file = |value: &Value<'_>| {
        let o = value.as_object()?;
        let text = |key: &str| o.get(key).as_str().map(str::to_owned);
        let size = o.f64("size")?;
        let safe = (0.0..=9_007_199_254_740_991.0).contains(&size) && size.fract() == 0.0;
        Some(UploadedFile {
            path: text("path")?,
            name: text("name")?,
            mime_type: text("mimeType")?,
            size: safe.then_some(size as u64)?,
        })
    };
    Object::parse(response.ok()?)
        .as_ref()
        .and_then(|o| o.array("files"))
        .and_then(|files| files.iter().map(file).collect::<Option<Vec<_>>>())
        .map(|files| UploadResult { files })
        .ok_or_else(|| CloudError::bad_response("Invalid Cloud sandbox upload response."))
}

/// The status of a download (the bytes stay in the transport).
pub fn check_download(response: HttpResponse<'_>) -> CloudResult<()> {
    response.ok().map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::http::test_support::builder;

    #[test]
    fn upload_and_download_validation_texts() {
        let rb = builder();
        assert_eq!(
            upload(&rb, "s", &[]).unwrap_err().message,
            "Cloud sandbox file upload requires at least one file."
        );
        assert_eq!(
            upload(&rb, "s", &[Some("a"), Some(" ")])
                .unwrap_err()
                .message,
            "Invalid Cloud sandbox upload file at index 1."
        );
        assert_eq!(
            upload(&rb, "s", &[None]).unwrap_err().message,
            "Invalid Cloud sandbox upload file at index 0."
        );
        let ok = upload(&rb, "sbx-1", &[Some("a.txt")]).unwrap();
        assert_eq!(
            (ok.url.as_str(), &ok.body),
            (
                "https://api.letta.com/v1/sandboxes/sbx-1/files",
                &Body::Multipart { field: "file" }
            )
        );
        assert_eq!(
            ok.header("content-type"),
            None,
            "FormData sets the boundary"
        );
        let get = download(&rb, "sbx-1", "/root/downloads/a.txt").unwrap();
        assert_eq!(
            get.url,
            "https://api.letta.com/v1/sandboxes/sbx-1/files?path=%2Froot%2Fdownloads%2Fa.txt"
        );
        assert_eq!(get.response, ResponseKind::Binary);
        assert!(download(&rb, "sbx-1", "").is_err());
        assert_eq!(
            computer_error().message,
            "Sandbox file transfer requires an SDK-managed Cloud sandbox."
        );
    }

    #[test]
    fn upload_responses_are_validated() {
        let ok = parse_upload(HttpResponse::new(200, r#"{"files":[{"path":"/root/downloads/a","name":"a","mimeType":"text/plain","size":3}]}"#)).unwrap();
        assert_eq!(ok.files[0].size, 3);
        assert!(parse_upload(HttpResponse::new(
            200,
            r#"{"files":[{"path":"p","name":"a","mimeType":"t","size":-1}]}"#
        ))
        .is_err());
        assert!(parse_upload(HttpResponse::new(
            200,
            r#"{"files":[{"path":"p","name":"a","mimeType":"t","size":1.5}]}"#
        ))
        .is_err());
        assert!(parse_upload(HttpResponse::new(
            200,
            r#"{"files":[{"path":"p","name":"a","mimeType":"t","size":9007199254740992}]}"#
        ))
        .is_err());
    }
}
