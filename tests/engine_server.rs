//! Drives `engine::server` over real HTTP on an ephemeral loopback port: DynamoDB's
//! protocol for good requests, DynamoDB-shaped errors for bad ones, and a server that
//! keeps answering after every kind of bad input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;

use dynalint::engine::server::Server;
use serde_json::{json, Value};

fn start() -> (
    SocketAddr,
    dynalint::engine::server::StopHandle,
    thread::JoinHandle<Result<(), dynalint::engine::server::ServeError>>,
) {
    let server = Server::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.stop_handle();
    let join = thread::spawn(move || server.serve());
    (addr, stop, join)
}

/// Sends raw bytes, returns (status, body).
fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(2)))
        .unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

fn call(addr: SocketAddr, target: Option<&str>, body: &str) -> (u16, Value) {
    let target = target
        .map(|t| format!("X-Amz-Target: {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n{target}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, body) = raw(addr, req.as_bytes());
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

fn op(addr: SocketAddr, name: &str, body: Value) -> (u16, Value) {
    call(
        addr,
        Some(&format!("DynamoDB_20120810.{name}")),
        &body.to_string(),
    )
}

#[test]
fn speaks_dynamodb_and_survives_bad_input() {
    let (addr, stop, join) = start();
    let (status, _) = op(
        addr,
        "CreateTable",
        json!({"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                        {"AttributeName": "g", "AttributeType": "S"}],
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
               "GlobalSecondaryIndexes": [{"IndexName": "ByG",
                   "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                   "Projection": {"ProjectionType": "ALL"}}]}),
    );
    assert_eq!(status, 200);
    let (status, _) = op(
        addr,
        "PutItem",
        json!({"TableName": "Orders", "Item": {"pk": {"S": "o1"}, "g": {"S": "G"}}}),
    );
    assert_eq!(status, 200);
    let (status, body) = op(
        addr,
        "Query",
        json!({"TableName": "Orders", "IndexName": "ByG", "KeyConditionExpression": "g = :g",
               "ExpressionAttributeValues": {":g": {"S": "G"}}}),
    );
    assert_eq!(status, 200);
    assert_eq!(body["Count"], 1);

    // A rejected request: DynamoDB's type and words.
    let (status, body) = op(
        addr,
        "Query",
        json!({"TableName": "Orders", "IndexName": "ByG", "ConsistentRead": true,
               "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "G"}}}),
    );
    assert_eq!(status, 400);
    assert_eq!(
        body["__type"],
        "com.amazon.coral.validate#ValidationException"
    );
    assert_eq!(
        body["message"],
        "Consistent reads are not supported on global secondary indexes"
    );

    // Bad JSON, unknown operation, missing target, oversized and malformed HTTP.
    let (status, body) = call(addr, Some("DynamoDB_20120810.PutItem"), "{not json");
    assert_eq!(
        (status, body["__type"].as_str()),
        (400, Some("com.amazon.coral.service#SerializationException"))
    );
    let (status, body) = op(addr, "Frobnicate", json!({}));
    assert_eq!(
        (status, body["__type"].as_str()),
        (
            400,
            Some("com.amazon.coral.service#UnknownOperationException")
        )
    );
    let (status, body) = call(addr, None, "{}");
    assert_eq!(
        (status, body["__type"].as_str()),
        (
            400,
            Some("com.amazon.coral.service#UnknownOperationException")
        )
    );
    let big = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        dynalint::engine::server::MAX_BODY_BYTES + 10
    );
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(big.as_bytes()).unwrap();
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..17 {
        if s.write_all(&chunk).is_err() {
            break;
        }
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    assert!(
        String::from_utf8_lossy(&out).contains("413"),
        "oversized body gets 413"
    );
    let _ = raw(addr, b"GARBAGE\r\n\r\n");
    let _ = raw(addr, b"");

    // Still serving, state intact.
    let (status, body) = op(
        addr,
        "GetItem",
        json!({"TableName": "Orders", "Key": {"pk": {"S": "o1"}}}),
    );
    assert_eq!(status, 200);
    assert_eq!(body["Item"]["g"]["S"], "G");
    stop.stop();
    join.join().unwrap().unwrap();
}

mod serve_support;

use serve_support::{list_tables, request, start_default, Conn};

#[test]
fn speaks_http_1_1_as_clients_do() {
    let server = start_default();
    let mut c = Conn::open(server.addr);
    // Chunked body.
    c.send(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n");
    let a = c.answer().unwrap();
    assert_eq!((a.status, a.json()["TableNames"].is_array()), (200, true));
    // Pipelined: three requests in one write, three answers in order, same connection.
    let three = format!(
        "{}{}{}",
        request("DescribeTable", r#"{"TableName":"Nope"}"#),
        list_tables(),
        request("Frobnicate", "{}")
    );
    c.send(three.as_bytes());
    let answers: Vec<u16> = (0..3).map(|_| c.answer().unwrap().status).collect();
    assert_eq!(answers, [400, 200, 400]);
    // Expect: 100-continue: the body is sent once the server asks for it.
    c.send(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
    assert_eq!(c.answer().unwrap().status, 100);
    c.send(b"{}");
    assert_eq!(c.answer().unwrap().status, 200);
    // HTTP/1.0 without keep-alive: answered, then closed.
    let mut old = Conn::open(server.addr);
    old.send(b"POST / HTTP/1.0\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n\r\n{}");
    assert_eq!(old.answer().unwrap().status, 200);
    assert!(old.closed());
}

#[test]
fn bad_http_is_refused_and_the_server_keeps_serving() {
    let server = start_default();
    // Not HTTP: hyper's bare 400, and the connection closed.
    let mut c = Conn::open(server.addr);
    c.send(b"GARBAGE\r\n\r\n");
    assert_eq!(c.answer().unwrap().status, 400);
    assert!(c.closed());
    // Pipelined garbage after a good request: the good one is answered first.
    let mut c = Conn::open(server.addr);
    c.send(format!("{}\x00\x01 NOT HTTP\r\n\r\n", list_tables()).as_bytes());
    assert_eq!(c.answer().unwrap().status, 200);
    assert_eq!(c.answer().unwrap().status, 400);
    // Header floods: too many headers, or too many bytes of them.
    let many: String = (0..500).map(|i| format!("X-H{i}: v\r\n")).collect();
    let mut c = Conn::open(server.addr);
    c.send(format!("POST / HTTP/1.1\r\nHost: x\r\n{many}Content-Length: 0\r\n\r\n").as_bytes());
    assert_eq!(c.answer().unwrap().status, 431);
    let long = "a".repeat(200 * 1024);
    let mut c = Conn::open(server.addr);
    c.send(
        format!("POST / HTTP/1.1\r\nHost: x\r\nX-Long: {long}\r\nContent-Length: 0\r\n\r\n")
            .as_bytes(),
    );
    assert!(matches!(c.answer().map(|a| a.status), Some(431) | None));
    // A bad chunked body: the DynamoDB-shaped answer, and the connection closed.
    let mut c = Conn::open(server.addr);
    c.send(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n");
    let a = c.answer().unwrap();
    assert_eq!(a.status, 400, "{a:?}");
    assert_eq!(
        a.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
    // Still serving.
    let mut c = Conn::open(server.addr);
    assert_eq!(c.call(&list_tables()).status, 200);
}

#[tokio::test(flavor = "current_thread")]
async fn speaks_http_2_with_prior_knowledge() {
    let server = start_default();
    let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut client = client.ready().await.unwrap();
    for _ in 0..3 {
        let request = http::Request::post("http://localhost/")
            .header("x-amz-target", "DynamoDB_20120810.ListTables")
            .header("content-type", "application/x-amz-json-1.0")
            .body(())
            .unwrap();
        let (response, mut send) = client.send_request(request, false).unwrap();
        send.send_data(bytes::Bytes::from_static(b"{}"), true)
            .unwrap();
        let response = response.await.unwrap();
        assert_eq!(response.status(), 200);
        let mut body = response.into_body();
        let mut got = Vec::new();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.unwrap();
            body.flow_control().release_capacity(chunk.len()).unwrap();
            got.extend_from_slice(&chunk);
        }
        assert_eq!(got, br#"{"TableNames":[]}"#);
        client = client.ready().await.unwrap();
    }
}
