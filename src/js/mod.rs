//! `#[wasm_bindgen]` bindings (wasm32 only). Each file binds one exported class.
