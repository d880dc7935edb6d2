"""The metadata is in setup.cfg; this file only declares the optional compiled kernels: the
dealer's pass, the player's pass and a split's pair tables.

If the C compiler is missing or a build fails, bjcalc installs anyway and runs the numpy
version of the same loop (slower, same results to rounding).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bjcalc.engine._dealer_kernel",
            ["bjcalc/engine/_dealer_kernel.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "bjcalc.engine._player_kernel",
            ["bjcalc/engine/_player_kernel.c"],
            # no fused multiply-adds: the numpy fallback rounds every product and sum
            extra_compile_args=["-O3", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "bjcalc.engine._pairs_kernel",
            ["bjcalc/engine/_pairs_kernel.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "bjcalc.counting._simulate_kernel",
            ["bjcalc/counting/_simulate_kernel.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
