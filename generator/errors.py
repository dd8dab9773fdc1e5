"""Errors the CLI shows to an editor as a message, never as a traceback."""


class LayermapError(Exception):
    """A problem outside the content (missing runtime files, engine failure …) with a fix."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n    fix: {self.hint}" if self.hint else self.message

    def __reduce__(self) -> tuple:  # raised in a forked process, it arrives whole (the hint too)
        return type(self), (self.message, self.hint)
