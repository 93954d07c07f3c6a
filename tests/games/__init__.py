"""Games that live only in the test suite, registered the way any game outside the project is."""
