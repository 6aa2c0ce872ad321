"""The shipped trained model, loaded once for the classifier's tests."""
from __future__ import annotations

import pytest

from kb.resources import find_resource
from pipeline.classify.model import Model


@pytest.fixture(scope="session")
def base() -> Model:
    return Model.load(find_resource("data/classifier_model.npz"))
