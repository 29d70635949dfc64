//! One-shot timers through the host's `setTimeout` (browsers, Node and React Native all have
//! it) and the current time through `Date.now()`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &JsValue, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(handle: &JsValue);
}

/// Milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// A scheduled callback; dropping it cancels the timer and releases the closure.
pub struct Timer {
    handle: JsValue,
    _callback: Closure<dyn FnMut()>,
    /// When it fires (ms since the epoch).
    pub at: u64,
}

impl Timer {
    /// Calls `callback` once at time `at` (or as soon as possible if that is past).
    pub fn at(at: u64, callback: impl FnMut() + 'static) -> Timer {
        let callback = Closure::<dyn FnMut()>::new(callback);
        let delay = at.saturating_sub(now_ms()) as f64;
        let handle = set_timeout(callback.as_ref(), delay);
        Timer {
            handle,
            _callback: callback,
            at,
        }
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.handle);
    }
}
