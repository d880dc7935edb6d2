"""The metadata is in setup.cfg; this file only declares the optional compiled dealer kernel.

If the C compiler is missing or the build fails, bjcalc installs anyway and runs the numpy
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
        )
    ]
)
