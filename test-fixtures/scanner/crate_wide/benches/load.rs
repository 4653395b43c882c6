fn bench() {
    client().scan().table_name("Shop").send();
}
