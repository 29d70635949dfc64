//! A one-shot timer and the clock. The global `setTimeout` / `clearTimeout` (not `window`'s:
//! Node and React Native have no `window`), and `Date.now()`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &js_sys::Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// Milliseconds since the epoch (`Date.now()`), the clock the session core is fed.
pub fn now() -> u64 {
    js_sys::Date::now() as u64
}

/// A re-armable `setTimeout` with one handler closure for its whole life (re-arming on every
/// changed deadline creates no closure); dropping it clears the timeout and frees the closure.
pub struct Timer {
    handler: Closure<dyn FnMut()>,
    id: Option<JsValue>,
}

impl Timer {
    /// A timer that calls `handler` each time an armed timeout passes.
    pub fn new(handler: impl FnMut() + 'static) -> Timer {
        Timer {
            handler: Closure::new(handler),
            id: None,
        }
    }

    /// Calls the handler once, `ms` milliseconds from now (replacing a pending timeout).
    pub fn arm(&mut self, ms: f64) {
        self.clear();
        self.id = Some(set_timeout(
            self.handler.as_ref().unchecked_ref(),
            ms.max(0.0),
        ));
    }

    /// Cancels the pending timeout, if any.
    pub fn clear(&mut self) {
        if let Some(id) = self.id.take() {
            clear_timeout(&id);
        }
    }

    /// Forgets the timeout that just fired (its handler calls this).
    pub fn fired(&mut self) {
        self.id = None;
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Resolves after `ms` milliseconds (one `setTimeout`): waits of the Cloud start sequence and
/// of REST retries.
#[cfg(feature = "cloud")]
pub async fn sleep(ms: f64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms.max(0.0));
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
