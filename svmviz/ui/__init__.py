"""The only package that imports streamlit: cached wrappers, widgets and state for the pages."""
