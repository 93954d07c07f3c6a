"""Running the bot for months: Prometheus metrics, health over HTTP, a graceful stop."""
