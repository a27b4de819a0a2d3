// Small DOM helpers shared by the pages.
//   h(tag, attrs?, ...children)  an element; attrs: properties, "class", "on<event>" handlers,
//                                "aria-*"/"data-*"/"role"/"for"/"translate" attributes
//                                (translate: "no" marks a person's words: a name, a chat
//                                line); children: nodes or strings
//   params()                     the page URL's query parameters (URLSearchParams)

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (key === "class") {
      element.className = value;
    } else if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key.startsWith("aria-") || key.startsWith("data-") || ["role", "for", "translate"].includes(key)) {
      element.setAttribute(key, value === true ? "" : String(value));
    } else {
      element[key] = value;
    }
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      element.append(child instanceof Node ? child : String(child));
    }
  }
  return element;
}

export function params() {
  return new URLSearchParams(location.search);
}
