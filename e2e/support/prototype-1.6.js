/*
 * What Prototype.js 1.6 (still on old Magento and osCommerce stores) does to a page's built-ins,
 * written afresh for the browser tests: not Prototype's code, only its observable behaviour where
 * it touches what a script of ours might call. A merchant page of e2e/host-page-prototypes.spec.ts
 * loads it before the widget, as such a store's <head> loads Prototype before anything else.
 *
 * - JSON by hand: `toJSON` on Array, String, Number and Date prototypes, each returning a *string of
 *   JSON* (Prototype's own serializer, Object.toJSON, reads them), so that the browser's
 *   JSON.stringify([1]) gives "\"[1]\"" and a Date is quoted twice.
 * - Object.keys and Object.values of its own, which walk for-in (inherited properties included),
 *   Object.toJSON, Object.isArray and friends; Hash and $H.
 * - $A, and Array.from replaced by it (which ignores a map function, and iterables without a length).
 * - Enumerable mixed into Array.prototype by assignment (so enumerable): each, map/collect,
 *   filter/findAll/select, find/detect, every/all, some/any, include, inject, pluck, entries (an array,
 *   not an iterator), and 1.6.0's reduce (which does not reduce).
 * - Function.prototype.bind of its own (no `new`, no length), String.prototype.startsWith/endsWith
 *   without a position, RegExp.prototype.match.
 * - Element.Methods on every HTML element, remove() among them (it throws on an element with no
 *   parent), a constructor in Element's place, and $.
 * Object.prototype is left alone, as Prototype left it. Its Event, Ajax, Form and selector engine
 * are not reproduced: nothing of ours goes through them.
 */
(function () {
  var $break = {};

  function extend(target, source) {
    for (var name in source) target[name] = source[name];
    return target;
  }
  function isUndefined(value) {
    return typeof value === 'undefined';
  }
  function pad(number) {
    return (number < 10 ? '0' : '') + number;
  }

  function $A(iterable) {
    if (!iterable) return [];
    if (iterable.toArray) return iterable.toArray();
    var length = iterable.length || 0;
    var copy = new Array(length);
    while (length--) copy[length] = iterable[length];
    return copy;
  }
  window.$A = $A;
  Array.from = $A;

  extend(Object, {
    keys: function (object) {
      var keys = [];
      for (var name in object) keys.push(name);
      return keys;
    },
    values: function (object) {
      var values = [];
      for (var name in object) values.push(object[name]);
      return values;
    },
    isArray: function (value) {
      return value != null && typeof value === 'object' && 'splice' in value && 'join' in value;
    },
    isFunction: function (value) {
      return typeof value === 'function';
    },
    isString: function (value) {
      return typeof value === 'string';
    },
    isNumber: function (value) {
      return typeof value === 'number';
    },
    isUndefined: isUndefined,
    isHash: function (value) {
      return value instanceof Hash;
    },
    clone: function (object) {
      return extend({}, object);
    },
    // The library's serializer: a value's own toJSON first, else its for-in properties.
    toJSON: function (value) {
      var type = typeof value;
      if (type === 'undefined' || type === 'function' || type === 'unknown') return undefined;
      if (type === 'boolean') return value.toString();
      if (value === null) return 'null';
      if (value.toJSON) return value.toJSON();
      if (value.nodeType === 1) return undefined;
      var members = [];
      for (var name in value) {
        var json = Object.toJSON(value[name]);
        if (!isUndefined(json)) members.push(name.toJSON() + ': ' + json);
      }
      return '{' + members.join(', ') + '}';
    },
  });

  var ESCAPES = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '\\': '\\\\' };
  extend(String.prototype, {
    inspect: function (doubleQuotes) {
      var escaped = this.replace(/[\x00-\x1f\\]/g, function (character) {
        return ESCAPES[character] || '\\u00' + pad(character.charCodeAt(0).toString(16));
      });
      return doubleQuotes ? '"' + escaped.replace(/"/g, '\\"') + '"' : "'" + escaped.replace(/'/g, "\\'") + "'";
    },
    toJSON: function () {
      return this.inspect(true);
    },
    strip: function () {
      return this.replace(/^\s+/, '').replace(/\s+$/, '');
    },
    include: function (pattern) {
      return this.indexOf(pattern) > -1;
    },
    startsWith: function (pattern) {
      return this.indexOf(pattern) === 0;
    },
    endsWith: function (pattern) {
      var at = this.length - pattern.length;
      return at >= 0 && this.lastIndexOf(pattern) === at;
    },
    blank: function () {
      return /^\s*$/.test(this);
    },
  });

  extend(Number.prototype, {
    toJSON: function () {
      return isFinite(this) ? this.toString() : 'null';
    },
    succ: function () {
      return this + 1;
    },
    times: function (iterator) {
      for (var i = 0; i < this; i++) iterator(i);
      return this;
    },
  });

  Date.prototype.toJSON = function () {
    return (
      '"' + this.getUTCFullYear() + '-' + pad(this.getUTCMonth() + 1) + '-' + pad(this.getUTCDate()) +
      'T' + pad(this.getUTCHours()) + ':' + pad(this.getUTCMinutes()) + ':' + pad(this.getUTCSeconds()) + 'Z"'
    );
  };

  RegExp.prototype.match = RegExp.prototype.test;

  var enumerable = {
    each: function (iterator, context) {
      try {
        for (var i = 0, length = this.length; i < length; i++) iterator.call(context, this[i], i);
      } catch (thrown) {
        if (thrown !== $break) throw thrown;
      }
      return this;
    },
    collect: function (iterator, context) {
      var results = [];
      this.each(function (value, index) {
        results.push(iterator ? iterator.call(context, value, index) : value);
      });
      return results;
    },
    findAll: function (iterator, context) {
      var results = [];
      this.each(function (value, index) {
        if (iterator.call(context, value, index)) results.push(value);
      });
      return results;
    },
    detect: function (iterator, context) {
      var found;
      this.each(function (value, index) {
        if (iterator.call(context, value, index)) {
          found = value;
          throw $break;
        }
      });
      return found;
    },
    all: function (iterator, context) {
      var result = true;
      this.each(function (value, index) {
        result = result && !!(iterator ? iterator.call(context, value, index) : value);
        if (!result) throw $break;
      });
      return result;
    },
    any: function (iterator, context) {
      var result = false;
      this.each(function (value, index) {
        if ((result = !!(iterator ? iterator.call(context, value, index) : value))) throw $break;
      });
      return result;
    },
    include: function (object) {
      return this.indexOf(object) !== -1;
    },
    inject: function (memo, iterator, context) {
      this.each(function (value, index) {
        memo = iterator.call(context, memo, value, index);
      });
      return memo;
    },
    pluck: function (property) {
      return this.collect(function (value) {
        return value[property];
      });
    },
    toArray: function () {
      return this.collect();
    },
    size: function () {
      return this.length;
    },
    first: function () {
      return this[0];
    },
    last: function () {
      return this[this.length - 1];
    },
    compact: function () {
      return this.findAll(function (value) {
        return value != null;
      });
    },
    clone: function () {
      return this.collect();
    },
    // 1.6.0: "reduce" an array of one element to that element.
    reduce: function () {
      return this.length > 1 ? this : this[0];
    },
    inspect: function () {
      return '[' + this.collect(function (value) {
        return value && value.inspect ? value.inspect() : String(value);
      }).join(', ') + ']';
    },
    toJSON: function () {
      var members = [];
      this.each(function (value) {
        var json = Object.toJSON(value);
        if (!isUndefined(json)) members.push(json);
      });
      return '[' + members.join(', ') + ']';
    },
  };
  enumerable.map = enumerable.collect;
  enumerable.filter = enumerable.select = enumerable.findAll;
  enumerable.find = enumerable.detect;
  enumerable.every = enumerable.all;
  enumerable.some = enumerable.any;
  enumerable.member = enumerable.include;
  enumerable.entries = enumerable.toArray;
  extend(Array.prototype, enumerable);

  extend(Function.prototype, {
    bind: function () {
      if (arguments.length < 2 && isUndefined(arguments[0])) return this;
      var method = this;
      var args = $A(arguments);
      var object = args.shift();
      return function () {
        return method.apply(object, args.concat($A(arguments)));
      };
    },
    defer: function () {
      var method = this;
      var args = $A(arguments);
      return setTimeout(function () {
        method.apply(method, args);
      }, 10);
    },
  });

  function Hash(object) {
    this._object = object instanceof Hash ? object.toObject() : Object.clone(object);
  }
  Hash.prototype = {
    set: function (key, value) {
      return (this._object[key] = value);
    },
    get: function (key) {
      if (this._object[key] !== Object.prototype[key]) return this._object[key];
    },
    unset: function (key) {
      var value = this._object[key];
      delete this._object[key];
      return value;
    },
    toObject: function () {
      return Object.clone(this._object);
    },
    keys: function () {
      return Object.keys(this._object);
    },
    toJSON: function () {
      return Object.toJSON(this.toObject());
    },
  };
  window.Hash = Hash;
  window.$H = function (object) {
    return new Hash(object);
  };
  // Element.Methods, made methods of every HTML element (and Element itself replaced by a constructor
  // that keeps its prototype): among them a remove() of its own, which throws on an element that has
  // no parent, where the browser's does nothing.
  var elementMethods = {
    remove: function (element) {
      element.parentNode.removeChild(element);
      return element;
    },
    update: function (element, content) {
      element.innerHTML = content == null ? '' : String(content);
      return element;
    },
    visible: function (element) {
      return element.style.display !== 'none';
    },
    hide: function (element) {
      element.style.display = 'none';
      return element;
    },
    show: function (element) {
      element.style.display = '';
      return element;
    },
    toggle: function (element) {
      element.style.display = element.style.display === 'none' ? '' : 'none';
      return element;
    },
    select: function (element, selector) {
      return $A(element.querySelectorAll(selector));
    },
    scrollTo: function (element) {
      var box = element.getBoundingClientRect();
      window.scrollTo(box.left + window.pageXOffset, box.top + window.pageYOffset);
      return element;
    },
  };
  for (var method in elementMethods) {
    HTMLElement.prototype[method] = (function (helper) {
      return function () {
        return helper.apply(null, [this].concat($A(arguments)));
      };
    })(elementMethods[method]);
  }
  var BrowsersElement = window.Element;
  window.Element = function (tagName, attributes) {
    var element = document.createElement(tagName);
    for (var name in attributes || {}) element.setAttribute(name, attributes[name]);
    return element;
  };
  window.Element.prototype = BrowsersElement.prototype;
  window.Element.Methods = elementMethods;
  window.$ = function (id) {
    return typeof id === 'string' ? document.getElementById(id) : id;
  };

  window.Prototype = { Version: '1.6.0.3 (as the test reproduces it)' };
})();
