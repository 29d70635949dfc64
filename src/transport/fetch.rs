//! `fetch` for the Cloud REST calls: performs an [`HttpRequest`] built by
//! `crate::cloud` with the caller's injected `fetch` or the platform's own, with the generated
//! client's retry rule ([`http::retry_delay_ms`]), and hands back the status and the body.
//!
//! The request's headers carry the API key; no error text built here contains a header or the
//! URL (query strings may hold ids the caller did not mean to log), only the method, the path's
//! route and the platform's own message.

use super::timer::sleep;
use crate::cloud::error::CloudError;
use crate::cloud::http::{self, Body, HttpRequest, HttpResponse, ResponseKind};
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// The `Response` of any `fetch` implementation (read structurally, so polyfills work).
    type FetchResponse;
    #[wasm_bindgen(method, getter)]
    fn status(this: &FetchResponse) -> f64;
    #[wasm_bindgen(method, getter)]
    fn headers(this: &FetchResponse) -> FetchHeaders;
    #[wasm_bindgen(method, catch)]
    fn text(this: &FetchResponse) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch, js_name = arrayBuffer)]
    fn array_buffer(this: &FetchResponse) -> Result<Promise, JsValue>;

    /// `Response.headers`.
    type FetchHeaders;
    #[wasm_bindgen(method, catch)]
    fn get(this: &FetchHeaders, name: &str) -> Result<Option<String>, JsValue>;
}

/// A response body as read.
#[derive(Debug, Clone)]
pub enum ResponseBody {
    /// Text, for the JSON parsers of `crate::cloud`.
    Text(String),
    /// Bytes (file downloads), handed to the caller as they are.
    Bytes(Uint8Array),
}

/// A response: the status and the body.
#[derive(Debug, Clone)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// The body, read as the request asked.
    pub body: ResponseBody,
}

impl Response {
    /// The view the parsers take (the text; empty for a binary body).
    pub fn as_http(&self) -> HttpResponse<'_> {
        let text = match &self.body {
            ResponseBody::Text(text) => text.as_str(),
            ResponseBody::Bytes(_) => "",
        };
        HttpResponse::new(self.status, text)
    }

    /// `Err` with the generated client's `<status> <body>` error unless the status is 2xx.
    pub fn ok(&self) -> Result<(), CloudError> {
        self.as_http().ok().map(|_| ())
    }
}

/// The `fetch` function of one client: the injected one, or the platform's.
#[derive(Clone)]
pub struct Fetch {
    function: Function,
}

impl Fetch {
    /// `injected` (the client's `fetch` option), else the global `fetch`.
    pub fn new(injected: Option<Function>) -> Result<Fetch, CloudError> {
        let function = match injected {
            Some(function) => function,
            None => Reflect::get(&js_sys::global(), &"fetch".into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .ok_or_else(|| {
                    CloudError::invalid(
                        "Letta Cloud needs fetch: this platform has no global fetch; pass the fetch option.",
                    )
                })?,
        };
        Ok(Fetch { function })
    }

    /// Performs `request` once, without retries, aborted by `signal` (an `AbortSignal`).
    pub async fn send_once(
        &self,
        request: &HttpRequest,
        signal: &JsValue,
    ) -> Result<Response, CloudError> {
        let response = self.once(request, None, Some(signal)).await?;
        let body = read_body(&response, request.response).await?;
        Ok(Response {
            status: response.status() as u16,
            body,
        })
    }

    /// Performs `request`, retrying as the generated client does. `files`: for a multipart
    /// body, the caller's `{name, content}` list (each appended under the body's field).
    pub async fn send(
        &self,
        request: &HttpRequest,
        files: Option<&JsValue>,
    ) -> Result<Response, CloudError> {
        let mut retry = 0;
        loop {
            let response = self.once(request, files, None).await?;
            let status = response.status() as u16;
            let header = |name: &str| response.headers().get(name).ok().flatten();
            let retry_after_ms = header("retry-after-ms")
                .and_then(|v| v.parse::<f64>().ok())
                .or_else(|| {
                    header("retry-after")
                        .and_then(|v| v.parse::<f64>().ok())
                        .map(|s| s * 1000.0)
                });
            let should_retry = header("x-should-retry");
            let delay = http::retry_delay_ms(
                status,
                should_retry.as_deref(),
                retry_after_ms,
                retry,
                js_sys::Math::random(),
            );
            if let Some(delay) = delay {
                retry += 1;
                sleep(delay as f64).await;
                continue;
            }
            let body = read_body(&response, request.response).await?;
            return Ok(Response { status, body });
        }
    }

    async fn once(
        &self,
        request: &HttpRequest,
        files: Option<&JsValue>,
        signal: Option<&JsValue>,
    ) -> Result<FetchResponse, CloudError> {
        let init = Object::new();
        set(&init, "method", &request.method.as_str().into());
        if let Some(signal) = signal {
            set(&init, "signal", signal);
        }
        let headers = Object::new();
        for (name, value) in &request.headers {
            set(&headers, name, &value.into());
        }
        match &request.body {
            Body::None => {}
            Body::Json(text) => set(&init, "body", &text.into()),
            Body::Multipart { field } => {
                // FormData sets the multipart Content-Type with its boundary itself.
                set(&init, "body", &form_data(field, files)?.into());
            }
        }
        set(&init, "headers", &headers);
        let failed = |error: JsValue| {
            CloudError::connection(format!(
                "Letta Cloud request failed ({} {}): {}",
                request.method.as_str(),
                route(&request.url),
                describe(&error)
            ))
        };
        let promise = self
            .function
            .call2(&JsValue::UNDEFINED, &request.url.as_str().into(), &init)
            .map_err(failed)?;
        let response = JsFuture::from(Promise::resolve(&promise))
            .await
            .map_err(failed)?;
        Ok(response.unchecked_into())
    }
}

/// Reads the body as text or bytes.
async fn read_body(
    response: &FetchResponse,
    kind: ResponseKind,
) -> Result<ResponseBody, CloudError> {
    let unreadable = |error: JsValue| {
        CloudError::connection(
            "Letta Cloud response body could not be read: ".to_owned() + &describe(&error),
        )
    };
    Ok(match kind {
        ResponseKind::Json => {
            let text = JsFuture::from(response.text().map_err(unreadable)?)
                .await
                .map_err(unreadable)?;
            ResponseBody::Text(
                text.dyn_ref::<js_sys::JsString>()
                    .map(super::text::to_string)
                    .unwrap_or_default(),
            )
        }
        ResponseKind::Binary => {
            let buffer = JsFuture::from(response.array_buffer().map_err(unreadable)?)
                .await
                .map_err(unreadable)?;
            ResponseBody::Bytes(Uint8Array::new(&buffer))
        }
    })
}

/// A `FormData` with each of `files` (`[{name, content}]`: content a Blob, bytes or text)
/// appended under `field` with its name.
fn form_data(field: &str, files: Option<&JsValue>) -> Result<web_sys::FormData, CloudError> {
    let invalid = |index: u32| {
        CloudError::invalid(format!(
            "Invalid Cloud sandbox upload file at index {index}."
        ))
    };
    let form = web_sys::FormData::new().map_err(|_| {
        CloudError::invalid("Letta Cloud file upload needs FormData, which this platform lacks.")
    })?;
    let files: js_sys::Array = files
        .cloned()
        .unwrap_or(JsValue::UNDEFINED)
        .dyn_into()
        .map_err(|_| invalid(0))?;
    for (index, file) in files.iter().enumerate() {
        let index = index as u32;
        let name = Reflect::get(&file, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .ok_or_else(|| invalid(index))?;
        let content = Reflect::get(&file, &"content".into()).unwrap_or(JsValue::UNDEFINED);
        let blob = match content.dyn_into::<web_sys::Blob>() {
            Ok(blob) => blob,
            Err(content) => {
                let parts = js_sys::Array::of1(&content);
                web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(|_| invalid(index))?
            }
        };
        form.append_with_blob_and_filename(field, &blob, &name)
            .map_err(|_| invalid(index))?;
    }
    Ok(form)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &key.into(), value);
}

/// The URL without scheme, host and query: what an error may say about the request.
fn route(url: &str) -> &str {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("/", |i| &after_scheme[i..]);
    path.split(['?', '#']).next().unwrap_or(path)
}

/// A short description of a thrown value.
fn describe(value: &JsValue) -> String {
    value
        .as_string()
        .or_else(|| {
            Reflect::get(value, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "unknown error".to_owned())
}
