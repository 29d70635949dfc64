//! Explicit computer resolution (spec §4.4).

use super::*;
use crate::cloud::http::test_support::builder;
use crate::cloud::http::Method;
use serde_json::json;

fn record(id: &str, name: &str, connection: Option<&str>) -> serde_json::Value {
    json!({"id": id, "deviceId": format!("dev-{id}"), "connectionId": connection, "connectionName": name,
           "organizationId": "org", "podId": null, "connectedAt": null, "lastHeartbeat": null,
           "lastSeenAt": 1, "firstSeenAt": 0})
}

fn list(records: Vec<serde_json::Value>) -> String {
    json!({"connections": records, "hasNextPage": false}).to_string()
}

fn resolve_with(selector: &ComputerSelector, body: &str) -> CloudResult<ResolvedComputer> {
    resolve_response(selector, HttpResponse::new(200, body))
}

#[test]
fn connection_ids_need_no_request() {
    let selector = ComputerSelector::ConnectionId("conn-1".into());
    assert_eq!(
        resolve(&builder(), &selector),
        Resolution::Done(ResolvedComputer {
            connection_id: "conn-1".into(),
            computer: None
        })
    );
}

#[test]
fn names_match_exactly_and_reject_ambiguity() {
    let selector = ComputerSelector::Name("laptop".into());
    let Resolution::Fetch(request) = resolve(&builder(), &selector) else {
        panic!("a request")
    };
    assert_eq!(
        (request.method, request.url.as_str()),
        (Method::Get, "https://api.letta.com/v1/environments")
    );
    let body = list(vec![
        record("e1", "laptop-2", Some("c1")),
        record("e2", "laptop", Some("c2")),
    ]);
    let resolved = resolve_with(&selector, &body).unwrap();
    assert_eq!(resolved.connection_id, "c2");
    assert_eq!(
        resolved.computer.as_ref().map(|c| c.name.as_str()),
        Some("laptop")
    );
    let twice = list(vec![
        record("e1", "laptop", Some("c1")),
        record("e2", "laptop", Some("c2")),
    ]);
    assert!(resolve_with(&selector, &twice)
        .unwrap_err()
        .message
        .contains("Computer name is ambiguous"));
    let none = list(vec![record("e1", "Laptop", Some("c1"))]);
    assert_eq!(
        resolve_with(&selector, &none).unwrap_err().message,
        "Computer not found: laptop"
    );
    let offline = list(vec![record("e1", "laptop", None)]);
    assert_eq!(
        resolve_with(&selector, &offline).unwrap_err().message,
        "Remote environment is offline: laptop"
    );
}

#[test]
fn ids_and_device_ids() {
    let by_id = ComputerSelector::Id("e2".into());
    let body = list(vec![
        record("e1", "a", Some("c1")),
        record("e2", "b", Some("c2")),
    ]);
    assert_eq!(resolve_with(&by_id, &body).unwrap().connection_id, "c2");
    assert_eq!(
        resolve_with(&ComputerSelector::Id("e9".into()), &body)
            .unwrap_err()
            .message,
        "Computer not found: e9"
    );
    let device = ComputerSelector::DeviceId("dev-7".into());
    let Resolution::Fetch(request) = resolve(&builder(), &device) else {
        panic!("a request")
    };
    assert_eq!(request.url, "https://api.letta.com/v1/environments/dev-7");
    assert_eq!(request.header("authorization"), Some("Bearer k"));
    let online = record("e7", "box", Some("c7")).to_string();
    let resolved = resolve_with(&device, &online).unwrap();
    assert_eq!(resolved.connection_id, "c7");
    let computer = resolved.computer.unwrap();
    assert_eq!(serde_json::to_value(&computer).unwrap()["status"], "online");
    let offline = record("e7", "box", None).to_string();
    assert_eq!(
        resolve_with(&device, &offline).unwrap_err().message,
        "Remote environment is offline: dev-7"
    );
    let missing = resolve_response(
        &device,
        HttpResponse::new(404, r#"{"message":"not found"}"#),
    )
    .unwrap_err();
    assert_eq!(
        (missing.status, missing.message.as_str()),
        (Some(404), "404 not found")
    );
}

#[test]
fn computers_list_maps_records() {
    use crate::cloud::computers::{list_request, parse_computer_list, ListComputersOptions};
    let options = ListComputersOptions {
        limit: Some(10),
        after: Some("e1".into()),
        online_only: Some(true),
    };
    assert_eq!(
        list_request(&builder(), &options).url,
        "https://api.letta.com/v1/environments?limit=10&after=e1&onlineOnly=true"
    );
    let mut with_meta = record("e2", "b", None);
    with_meta["metadata"] = json!({"os": "linux"});
    let body =
        json!({"connections": [record("e1", "a", Some("c1")), with_meta], "hasNextPage": true})
            .to_string();
    let parsed =
        serde_json::to_value(parse_computer_list(HttpResponse::new(200, &body)).unwrap()).unwrap();
    assert_eq!(parsed["hasNextPage"], true);
    assert_eq!(
        parsed["computers"][0],
        json!({"id": "e1", "deviceId": "dev-e1", "connectionId": "c1", "name": "a",
        "status": "online", "connectedAt": null, "lastSeenAt": 1.0})
    );
    assert_eq!(parsed["computers"][1]["status"], "offline");
    assert_eq!(parsed["computers"][1]["metadata"], json!({"os": "linux"}));
}
