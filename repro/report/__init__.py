"""Reports: artifact JSON and figures (build), HTML/PDF pages (html), terminal tables."""
