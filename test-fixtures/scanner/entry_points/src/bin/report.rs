// One-off: `export_all` in another file starts no server either. Its own request is
// left alone (another binary may share it); this `main`'s is one-off.
fn main() {
    CLIENT.query().table_name("Reports").key_condition_expression("PK = :pk").send();
    app::export_all();
}
