//! One-shot timers and the clock. The global `setTimeout` / `clearTimeout` (not `window`'s:
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

/// A pending `setTimeout`; dropping it clears the timeout and frees its closure.
pub struct Timer {
    id: JsValue,
    _handler: Closure<dyn FnMut()>,
}

impl Timer {
    /// Calls `handler` once, `ms` milliseconds from now.
    pub fn once(ms: f64, handler: impl FnOnce() + 'static) -> Timer {
        let mut handler = Some(handler);
        let closure = Closure::<dyn FnMut()>::new(move || {
            if let Some(handler) = handler.take() {
                handler();
            }
        });
        let id = set_timeout(closure.as_ref().unchecked_ref(), ms.max(0.0));
        Timer {
            id,
            _handler: closure,
        }
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.id);
    }
}
