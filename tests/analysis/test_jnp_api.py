from jaxfix.analysis import jnp_api


def test_a_call_binds_against_the_namesake_signature():
    # `jnp.permute_dims(a, /, axes)`: NumPy's `axes` is optional, JAX's required; `a` is positional-only there
    entry = jnp_api.lookup("numpy.permute_dims")
    assert jnp_api.binding_problem(entry, 1, []) == "it requires `axes`"
    assert jnp_api.binding_problem(entry, 2, []) is None
    assert jnp_api.binding_problem(entry, 1, ["axes"]) is None
    assert jnp_api.binding_problem(entry, 0, ["a", "axes"]) == "`a` is positional-only there"
    summed = jnp_api.lookup("numpy.sum")
    assert jnp_api.binding_problem(summed, 1, ["axis", "keepdims"]) is None
    assert jnp_api.binding_problem(summed, 2, ["axis"]) == "`axis` would be given twice"
    assert jnp_api.binding_problem(summed, 1, ["bogus"]) == "it takes no keyword `bogus`"


def test_a_signature_with_var_arguments_takes_any_more():
    entry = {"signature": [["a", "either", False], ["args", "args", False], ["kw", "kwargs", False]]}
    assert jnp_api.binding_problem(entry, 5, ["anything"]) is None
    assert jnp_api.binding_problem(entry, 0, []) == "it requires `a`"
    assert jnp_api.binding_problem({"params": None}, 3, []) is None  # no signature known: no verdict
