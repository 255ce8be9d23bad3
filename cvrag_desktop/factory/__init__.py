"""Synthetic CVs with ground truth: profiles as data, builder, prose, hard cases, reportlab layouts.

The public entry point is :func:`cvrag_desktop.factory.pipeline.generate_batch`.
"""
