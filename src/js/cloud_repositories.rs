//! `client.repositories` of the Cloud binding: more [`CloudClient`] methods, one per REST call
//! (spec §4.2 `RepositoriesClient`), each built by `crate::cloud::repositories`.

use super::cloud::CloudClient;
use crate::cloud::repositories;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl CloudClient {
    /// `repositories.create({name})`.
    #[wasm_bindgen(js_name = repositoriesCreate)]
    pub fn repositories_create(&self, name: &str) -> Promise {
        self.request_call(|rb| repositories::create(rb, name), repositories::parse)
    }

    /// `repositories.list({limit?, offset?})`: `{repositories, hasNextPage}`.
    #[wasm_bindgen(js_name = repositoriesList)]
    pub fn repositories_list(&self, limit: Option<u32>, offset: Option<u32>) -> Promise {
        self.request_call(
            |rb| repositories::list(rb, limit, offset),
            repositories::parse_list,
        )
    }

    /// `repositories.get(id)`.
    #[wasm_bindgen(js_name = repositoriesGet)]
    pub fn repositories_get(&self, id: &str) -> Promise {
        self.request_call(|rb| repositories::get(rb, id), repositories::parse)
    }

    /// `repositories.delete(id)`.
    #[wasm_bindgen(js_name = repositoriesDelete)]
    pub fn repositories_delete(&self, id: &str) -> Promise {
        self.request_call(|rb| repositories::delete(rb, id), repositories::parse)
    }

    /// `repositories.files.list(id, {pathPrefix?, depth?, ref?})`.
    #[wasm_bindgen(js_name = repositoryFilesList)]
    pub fn repository_files_list(&self, id: &str, options_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let options = repositories::ListFilesOptions::from_json(options_json)?;
                Ok(repositories::list_files(rb, id, &options))
            },
            repositories::parse,
        )
    }

    /// `repositories.files.create(id, {path, content})`.
    #[wasm_bindgen(js_name = repositoryFilesCreate)]
    pub fn repository_files_create(&self, id: &str, path: &str, content: &str) -> Promise {
        self.request_call(
            |rb| repositories::create_file(rb, id, path, content),
            repositories::parse,
        )
    }

    /// `repositories.files.read(id, {path, ref?})`.
    #[wasm_bindgen(js_name = repositoryFilesRead)]
    pub fn repository_files_read(
        &self,
        id: &str,
        path: &str,
        reference: Option<String>,
    ) -> Promise {
        self.request_call(
            |rb| repositories::read_file(rb, id, path, reference.as_deref()),
            repositories::parse,
        )
    }

    /// `repositories.files.update(id, {path, content?, newPath?, precondition?})`.
    #[wasm_bindgen(js_name = repositoryFilesUpdate)]
    pub fn repository_files_update(&self, id: &str, options_json: &str) -> Promise {
        self.text_call(
            |rb| {
                let options = repositories::UpdateFileOptions::from_json(options_json)?;
                Ok(repositories::update_file(rb, id, &options))
            },
            repositories::parse,
        )
    }

    /// `repositories.files.delete(id, {path})`.
    #[wasm_bindgen(js_name = repositoryFilesDelete)]
    pub fn repository_files_delete(&self, id: &str, path: &str) -> Promise {
        self.request_call(
            |rb| repositories::delete_file(rb, id, path),
            repositories::parse,
        )
    }

    /// `repositories.versions.list(id, {path?, limit?})`: an array.
    #[wasm_bindgen(js_name = repositoryVersionsList)]
    pub fn repository_versions_list(
        &self,
        id: &str,
        path: Option<String>,
        limit: Option<u32>,
    ) -> Promise {
        self.request_call(
            |rb| repositories::list_versions(rb, id, path.as_deref(), limit),
            repositories::parse_versions,
        )
    }

    /// `repositories.versions.get(id, sha, {path?})`.
    #[wasm_bindgen(js_name = repositoryVersionsGet)]
    pub fn repository_versions_get(&self, id: &str, sha: &str, path: Option<String>) -> Promise {
        self.request_call(
            |rb| repositories::get_version(rb, id, sha, path.as_deref()),
            repositories::parse,
        )
    }
}
