//! Rewrites that move the builder out of its function: into a helper function, a
//! repository method, a pair of functions (one builds, one sends), a generic function
//! over an entity whose associated const names the table, a helper taking the table.

use super::{
    after_item, builder_type, client_arg, client_chain, extract, line_indent, literal_in, place,
    reindent, send_result, table_arg, Cx, Made, TableAs, Variant,
};
use crate::edit::Edit;

/// The helper's parameter list after the client.
fn params_after(client: &str, params: &[String]) -> String {
    std::iter::once(client.to_string())
        .chain(params.iter().cloned())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The body text at the helper's indentation (four spaces in).
fn body_in_helper(cx: &Cx<'_>, body: &str, start: usize) -> String {
    reindent(body, &line_indent(cx.text, start), "        ")
}

/// `fn mm_query_N(client: &Client, p0: ..) -> QueryFluentBuilder { client.query()... }`;
/// the site calls it with the client and the arguments that read its scope.
pub fn helper_fn(cx: &Cx<'_>) -> Made {
    let chain = client_chain(cx)?;
    let x = extract(cx, chain, TableAs::Inline)?;
    let name = format!("mm_{}_{}", chain.op_name, cx.n);
    Ok(moved_to_fn(cx, place(cx)?, chain, &name, "", &x))
}

/// [`helper_fn`] with the table name always a parameter.
pub fn table_fn_arg(cx: &Cx<'_>) -> Made {
    let chain = client_chain(cx)?;
    let x = extract(cx, chain, TableAs::Param)?;
    let name = format!("mm_{}_in_{}", chain.op_name, cx.n);
    Ok(moved_to_fn(cx, place(cx)?, chain, &name, "", &x))
}

fn moved_to_fn(
    cx: &Cx<'_>,
    place: &crate::site::Place,
    chain: &crate::site::Chain,
    name: &str,
    generics: &str,
    x: &super::Extracted,
) -> Variant {
    let call_args = std::iter::once(client_arg(cx, chain))
        .chain(x.args.iter().cloned())
        .collect::<Vec<_>>()
        .join(", ");
    let site = Edit::replace(
        chain.builder.clone(),
        format!("{name}{generics}({call_args})"),
    );
    let helper_generics = if generics.is_empty() {
        String::new()
    } else {
        format!("<T: MmTable{}>", cx.n)
    };
    let helper = format!(
        "fn {name}{helper_generics}({}) -> {} {{\n    client{}\n}}",
        params_after("client: &aws_sdk_dynamodb::Client", &x.params),
        builder_type(&chain.op_name),
        body_in_helper(cx, &x.body, chain.op_call.start)
    );
    Variant::code(vec![site, after_item(place, &helper)])
}

/// `struct MmRepoN<'a> { client }` whose `async fn` sends the request; the site calls
/// `MmRepoN::new(&client).query_N(..)` and awaits it as it awaited `send()`.
pub fn repo_method(cx: &Cx<'_>) -> Made {
    let chain = client_chain(cx)?;
    let send = chain
        .send
        .clone()
        .ok_or("the chain is not sent where it is built")?;
    let x = extract(cx, chain, TableAs::Inline)?;
    let n = cx.n;
    let method = format!("{}_{n}", chain.op_name);
    let site = Edit::replace(
        send,
        format!(
            "MmRepo{n}::new({}).{method}({})",
            client_arg(cx, chain),
            x.args.join(", ")
        ),
    );
    let item = format!(
        "struct MmRepo{n}<'a> {{\n    client: &'a aws_sdk_dynamodb::Client,\n}}\n\nimpl<'a> MmRepo{n}<'a> {{\n    fn new(client: &'a aws_sdk_dynamodb::Client) -> Self {{\n        Self {{ client }}\n    }}\n\n    async fn {method}({}) -> {} {{\n        self.client{}\n            .send()\n            .await\n    }}\n}}",
        params_after("&self", &x.params),
        send_result(&chain.op_name),
        reindent(&x.body, &line_indent(cx.text, chain.op_call.start), "            ")
    );
    Ok(Variant::code(vec![site, after_item(place(cx)?, &item)]))
}

/// `fn mm_build_N(..) -> QueryFluentBuilder` and `async fn mm_send_N(builder)`; the site
/// is `mm_send_N(mm_build_N(&client, ..))`, awaited as before.
pub fn build_then_send(cx: &Cx<'_>) -> Made {
    let chain = client_chain(cx)?;
    let send = chain
        .send
        .clone()
        .ok_or("the chain is not sent where it is built")?;
    let x = extract(cx, chain, TableAs::Inline)?;
    let n = cx.n;
    let call_args = std::iter::once(client_arg(cx, chain))
        .chain(x.args.iter().cloned())
        .collect::<Vec<_>>()
        .join(", ");
    let site = Edit::replace(send, format!("mm_send_{n}(mm_build_{n}({call_args}))"));
    let builder = builder_type(&chain.op_name);
    let item = format!(
        "fn mm_build_{n}({}) -> {builder} {{\n    client{}\n}}\n\nasync fn mm_send_{n}(builder: {builder}) -> {} {{\n    builder.send().await\n}}",
        params_after("client: &aws_sdk_dynamodb::Client", &x.params),
        body_in_helper(cx, &x.body, chain.op_call.start),
        send_result(&chain.op_name)
    );
    Ok(Variant::code(vec![site, after_item(place(cx)?, &item)]))
}

/// `trait MmTableN { const TABLE: &'static str; }`, an entity implementing it with the
/// table's literal, and a generic helper reading `T::TABLE`, called with a turbofish.
pub fn table_assoc_const(cx: &Cx<'_>) -> Made {
    let chain = client_chain(cx)?;
    let (_, _, arg) = table_arg(cx, chain).ok_or("the chain sets no table name argument")?;
    let value = match literal_in(cx, arg.clone()) {
        Some(lit) => cx.text[lit].to_string(),
        None => {
            let t = &cx.text[arg];
            let is_const = !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == ':');
            if is_const {
                t.to_string()
            } else {
                // The model's name for the table the argument holds.
                format!("{:?}", super::table::model_name(cx)?)
            }
        }
    };
    let x = extract(cx, chain, TableAs::Expr("T::TABLE"))?;
    let n = cx.n;
    let name = format!("mm_{}_of_{n}", chain.op_name);
    let place = place(cx)?;
    let mut v = moved_to_fn(cx, place, chain, &name, &format!("::<MmEntity{n}>"), &x);
    v.edits.push(after_item(
        place,
        &format!(
            "trait MmTable{n} {{\n    const TABLE: &'static str;\n}}\n\nstruct MmEntity{n};\n\nimpl MmTable{n} for MmEntity{n} {{\n    const TABLE: &'static str = {value};\n}}"
        ),
    ));
    Ok(v)
}
