//! Random patterns for the property tests of the fast executor's modules: literal
//! characters and fixed atoms, nested in concatenations, alternations and the caller's
//! wrappers (templates with `{}` for the inner pattern). Tests only.

use proptest::prelude::*;
use proptest::sample::select;

/// Patterns built from one escaped character of `chars` (a proptest string regex) or an
/// atom of `atoms`, nested up to four deep in concatenations, alternations and
/// `wrappers` (each a template such as `"(?:{})*"`). Not every pattern compiles: callers
/// skip those the `regex` crate refuses.
pub fn patterns(
    chars: &'static str,
    atoms: &'static [&'static str],
    wrappers: &'static [&'static str],
) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        chars.prop_map(|s| regex_syntax::escape(&s)),
        select(atoms).prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| v.join("|")),
            (inner, select(wrappers)).prop_map(|(s, w)| w.replace("{}", &s)),
        ]
    })
    .boxed()
}
