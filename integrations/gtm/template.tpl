___TERMS_OF_SERVICE___

By creating or modifying this file you agree to Google Tag Manager's Community
Template Gallery Developer Terms of Service available at
https://developers.google.com/tag-manager/gallery-tos (or such other URL as
Google may provide), as modified from time to time.


___INFO___

{
  "type": "TAG",
  "id": "cvt_temp_public_id",
  "version": 1,
  "securityGroups": [],
  "displayName": "Assent Consent (Consent Mode v2)",
  "categories": [
    "UTILITY",
    "ADVERTISING",
    "ANALYTICS"
  ],
  "brand": {
    "id": "brand_assent",
    "displayName": "Assent",
    "thumbnail": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAGAAAABgCAYAAADimHc4AAABxUlEQVR42u3dS27DMBAEUV0gV/X9d8k+iOOfNN09XQP4AHplJzBB0sfBMIz5fN1u3++8kBvEJooxOjGM0OtjuMHXhHCHXxsiDX5ViHT82Ahb4CNDbMWPiLAd3zpCC75dhDZ4qxDt+NIIwIsjgC4MALgwAtDCCAALIwArjgCqMACgwghAiiOAKAwAoDhCI9bvkQVohz87BAE+wD8jAvgf4o9+CsAXfwrAFwbg3S/+MwQ+AdbiPwwA/vUB/o0A/vX4lQGc8OsCuOFXBXDEvxuAd/9cgD8jgD+Hvz6AO/54gMkHTMAfCzD9sCn4IwGmHzoJ3yrAGQ+fhn95gEmERHzLAO9iEEC45JuKbx3gWZhkfLt/wq8CpeNHBLgHtQHf5ovYq2Bb8EdXRM+KsB7/yvUg9cTslnZeJCNAaISo8wIJa/Xp+BZ7g8A32JzViG+3NbEN33KHNPgGW1Qa8O0PaBAgOMLKs8Ipe3pWH9befGyUk/Jme4q4L8JgVx23pXBRBxG4NQt8AnBzIvhEsMQnggE+EQzwCWAQgAhifCIY4PMjPvySEvhtEY6EAZ8Q3fCbIhxbBnhCdMO7hziaB/SiGAgPRkGOYdznBzIAuiGmbCmHAAAAAElFTkSuQmCC"
  },
  "description": "Loads the Assent consent widget on Consent Initialization, sets Google Consent Mode v2 defaults per region, and updates consent on every decision with the types the project's purposes map.",
  "containerContexts": [
    "WEB"
  ]
}


___TEMPLATE_PARAMETERS___

[
  {
    "type": "TEXT",
    "name": "projectId",
    "displayName": "Project ID",
    "simpleValueType": true,
    "alwaysInSummary": true,
    "help": "The Assent project the widget asks consent for (prj_…), as the operator portal shows it.",
    "valueValidators": [
      {
        "type": "NON_EMPTY"
      },
      {
        "type": "REGEX",
        "args": [
          "^prj_[A-Za-z0-9_]+$"
        ],
        "errorMessage": "A project ID starts with prj_."
      }
    ]
  },
  {
    "type": "TEXT",
    "name": "serviceOrigin",
    "displayName": "Assent service origin",
    "simpleValueType": true,
    "alwaysInSummary": true,
    "help": "Where your Assent service runs, without a trailing slash, e.g. https://consent.example.com. The widget loads from /widget/assent.classic.js there and talks to that origin. Any https origin works as published: the template may inject only /widget/assent.classic.js?project=… from it. The page's origin must be in a web client of the project.",
    "valueValidators": [
      {
        "type": "NON_EMPTY"
      },
      {
        "type": "REGEX",
        "args": [
          "^https://[A-Za-z0-9.-]+(:[0-9]+)?$"
        ],
        "errorMessage": "An https origin such as https://consent.example.com, without a path or a trailing slash."
      }
    ]
  },
  {
    "type": "TEXT",
    "name": "language",
    "displayName": "Language (optional)",
    "simpleValueType": true,
    "help": "A BCP 47 tag (fi, pt-BR) for the widget's words. Empty: the page's lang attribute and the browser's languages decide.",
    "valueValidators": [
      {
        "type": "REGEX",
        "args": [
          "^([A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)?$"
        ],
        "errorMessage": "A language tag such as fi or pt-BR."
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "defaultsGroup",
    "displayName": "Consent Mode defaults",
    "groupStyle": "ZIPPY_OPEN",
    "subParams": [
      {
        "type": "PARAM_TABLE",
        "name": "regionDefaults",
        "displayName": "Defaults per region",
        "help": "One row per region group, as your project's Consent Mode settings have them: the consentMode.defaults of the project's bootstrap answer (see docs/gtm.md for the command that prints them). Region: ISO 3166-2 codes separated by commas (FI, SE, US-CA); leave it empty for everywhere else. Google applies the most specific row. Without rows: everything but security_storage denied everywhere.",
        "paramTableColumns": [
          {
            "param": {
              "type": "TEXT",
              "name": "region",
              "displayName": "Region (empty: everywhere else)",
              "simpleValueType": true
            },
            "isUnique": true
          },
          {
            "param": {
              "type": "SELECT",
              "name": "ad_storage",
              "displayName": "ad_storage",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "denied"
            },
            "isUnique": false
          },
          {
            "param": {
              "type": "SELECT",
              "name": "ad_user_data",
              "displayName": "ad_user_data",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "denied"
            },
            "isUnique": false
          },
          {
            "param": {
              "type": "SELECT",
              "name": "ad_personalization",
              "displayName": "ad_personalization",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "denied"
            },
            "isUnique": false
          },
          {
            "param": {
              "type": "SELECT",
              "name": "analytics_storage",
              "displayName": "analytics_storage",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "denied"
            },
            "isUnique": false
          },
          {
            "param": {
              "type": "SELECT",
              "name": "functionality_storage",
              "displayName": "functionality_storage",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "denied"
            },
            "isUnique": false
          },
          {
            "param": {
              "type": "SELECT",
              "name": "personalization_storage",
              "displayName": "personalization_storage",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "denied"
            },
            "isUnique": false
          },
          {
            "param": {
              "type": "SELECT",
              "name": "security_storage",
              "displayName": "security_storage",
              "macrosInSelect": false,
              "selectItems": [
                {
                  "value": "denied",
                  "displayValue": "Denied"
                },
                {
                  "value": "granted",
                  "displayValue": "Granted"
                },
                {
                  "value": "",
                  "displayValue": "(not set)"
                }
              ],
              "simpleValueType": true,
              "defaultValue": "granted"
            },
            "isUnique": false
          }
        ]
      },
      {
        "type": "TEXT",
        "name": "waitForUpdate",
        "displayName": "wait_for_update (ms)",
        "simpleValueType": true,
        "defaultValue": "500",
        "help": "How long Google tags wait for the widget's first update. Google asks for at least 500 ms when the consent tool is loaded by Tag Manager.",
        "valueValidators": [
          {
            "type": "NON_EMPTY"
          },
          {
            "type": "REGEX",
            "args": [
              "^([5-9][0-9]{2}|[1-9][0-9]{3,4})$"
            ],
            "errorMessage": "At least 500 (milliseconds)."
          }
        ]
      },
      {
        "type": "CHECKBOX",
        "name": "adsDataRedaction",
        "checkboxText": "ads_data_redaction: redact ad click identifiers while ad_storage is denied",
        "simpleValueType": true,
        "defaultValue": true
      },
      {
        "type": "CHECKBOX",
        "name": "urlPassthrough",
        "checkboxText": "url_passthrough: pass ad click identifiers in links while ad_storage is denied",
        "simpleValueType": true,
        "defaultValue": false
      }
    ]
  },
  {
    "type": "TEXT",
    "name": "eventName",
    "displayName": "dataLayer event on every decision",
    "simpleValueType": true,
    "defaultValue": "assent_consent_update",
    "help": "Pushed with assent.consents (purpose reference → may it be used) and assent.consentMode (the types sent to Google); use it as a Custom Event trigger.",
    "valueValidators": [
      {
        "type": "NON_EMPTY"
      }
    ]
  }
]


___SANDBOXED_JS_FOR_WEB_TEMPLATE___

const callInWindow = require('callInWindow');
const createQueue = require('createQueue');
const encodeUriComponent = require('encodeUriComponent');
const getType = require('getType');
const gtagSet = require('gtagSet');
const injectScript = require('injectScript');
const JSON = require('JSON');
const logToConsole = require('logToConsole');
const makeNumber = require('makeNumber');
const makeString = require('makeString');
const queryPermission = require('queryPermission');
const setDefaultConsentState = require('setDefaultConsentState');
const updateConsentState = require('updateConsentState');

// Google Consent Mode v2's types, which Assent's purposes map (each purpose's consentMode field).
const consentTypes = ['ad_storage', 'ad_user_data', 'ad_personalization', 'analytics_storage', 'functionality_storage', 'personalization_storage', 'security_storage'];
// Google asks a consent tool that Tag Manager loads to let tags wait at least this long for its first update.
const minimumWait = 500;

const isValue = (value) => value === 'granted' || value === 'denied';

// Only the types given a value, each granted or denied.
const typesOf = (source) => {
  const settings = {};
  consentTypes.forEach((type) => {
    if (isValue(source[type])) settings[type] = source[type];
  });
  return settings;
};

const regionsOf = (text) => makeString(text || '').split(',')
  .map((code) => code.trim().toUpperCase())
  .filter((code) => code.length > 0);

// Without rows: what the widget itself assumes before it knows the project (all denied but security_storage).
const fallbackRow = {region: ''};
consentTypes.forEach((type) => {
  fallbackRow[type] = type === 'security_storage' ? 'granted' : 'denied';
});

// 1. The defaults, before any tag reads consent: region-scoped rows first, then the rows for everywhere else.
const wait = makeNumber(data.waitForUpdate);
const waitForUpdate = wait >= minimumWait ? wait : minimumWait;
const rows = getType(data.regionDefaults) === 'array' && data.regionDefaults.length > 0 ? data.regionDefaults : [fallbackRow];
const scoped = [];
const everywhere = [];
rows.forEach((row) => {
  const settings = typesOf(row);
  settings.wait_for_update = waitForUpdate;
  const region = regionsOf(row.region);
  if (region.length > 0) {
    settings.region = region;
    scoped.push(settings);
  } else {
    everywhere.push(settings);
  }
});
scoped.concat(everywhere).forEach((settings) => setDefaultConsentState(settings));

// 2. How Google tags behave while ad_storage is denied.
gtagSet({
  ads_data_redaction: data.adsDataRedaction === true,
  url_passthrough: data.urlPassthrough === true
});

// 3. Every decision: the types the widget reports (granted when a purpose mapped to them may be used), once each.
const pushToDataLayer = createQueue('dataLayer');
const eventName = data.eventName || 'assent_consent_update';
let told = '';
const tell = (state) => {
  if (getType(state) !== 'object' || getType(state.consentMode) !== 'object') return;
  const modes = typesOf(state.consentMode);
  const decision = JSON.stringify([state.consents, modes]);
  if (decision === told) return;
  told = decision;
  if (consentTypes.some((type) => isValue(modes[type]))) updateConsentState(modes);
  pushToDataLayer({event: eventName, assent: {consents: state.consents, consentMode: modes}});
};

// 4. The widget: the classic script, which places its own element for the project its URL names.
let url = data.serviceOrigin + '/widget/assent.classic.js?project=' + encodeUriComponent(data.projectId);
if (data.language) url = url + '&lang=' + encodeUriComponent(data.language);
if (!queryPermission('inject_script', url)) {
  logToConsole('Assent: this template may not load ' + url + '. The service origin must be https://host[:port], with no path. The defaults stand.');
  data.gtmOnFailure();
  return;
}
injectScript(url, () => {
  callInWindow('assent.on', 'ready', tell);
  callInWindow('assent.on', 'change', tell);
  // A returning visitor's stored decision is announced while the script runs, before this callback.
  const current = callInWindow('assent.getConsent');
  if (current && current.identityId) tell(current);
  data.gtmOnSuccess();
}, () => {
  logToConsole('Assent: the widget did not load from ' + url + '. The defaults stand.');
  data.gtmOnFailure();
}, url);


___WEB_PERMISSIONS___

[
  {
    "instance": {
      "key": {
        "publicId": "access_consent",
        "versionId": "1"
      },
      "param": [
        {
          "key": "consentTypes",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "ad_storage"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "ad_user_data"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "ad_personalization"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "analytics_storage"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "functionality_storage"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "personalization_storage"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "security_storage"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "access_globals",
        "versionId": "1"
      },
      "param": [
        {
          "key": "keys",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "key"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  },
                  {
                    "type": 1,
                    "string": "execute"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "assent.on"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "key"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  },
                  {
                    "type": 1,
                    "string": "execute"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "assent.getConsent"
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": false
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "key"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  },
                  {
                    "type": 1,
                    "string": "execute"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "dataLayer"
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": false
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "inject_script",
        "versionId": "1"
      },
      "param": [
        {
          "key": "urls",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 1,
                "string": "https://*/widget/assent.classic.js?project=*"
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "write_data_layer",
        "versionId": "1"
      },
      "param": [
        {
          "key": "keyPatterns",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 1,
                "string": "ads_data_redaction"
              },
              {
                "type": 1,
                "string": "url_passthrough"
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "logging",
        "versionId": "1"
      },
      "param": [
        {
          "key": "environments",
          "value": {
            "type": 1,
            "string": "debug"
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  }
]


___TESTS___

scenarios:
- name: Region rows first, each with wait_for_update of at least 500
  code: |-
    const denied = {ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'granted'};
    const granted = {ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted', functionality_storage: 'granted', personalization_storage: 'granted', security_storage: 'granted'};
    mock('injectScript', (url, onSuccess, onFailure) => {});
    runCode({
      projectId: 'prj_TEST', serviceOrigin: 'https://assent.example.workers.dev', language: '',
      regionDefaults: [
        {region: '', ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted', functionality_storage: 'granted', personalization_storage: 'granted', security_storage: 'granted'},
        {region: 'fi, SE', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'granted'}
      ],
      waitForUpdate: '100', adsDataRedaction: true, urlPassthrough: false, eventName: 'assent_consent_update'
    });
    denied.region = ['FI', 'SE'];
    denied.wait_for_update = 500;
    granted.wait_for_update = 500;
    assertApi('setDefaultConsentState').wasCalledWith(denied);
    assertApi('setDefaultConsentState').wasCalledWith(granted);
- name: Without rows, everything but security_storage is denied
  code: |-
    mock('injectScript', (url, onSuccess, onFailure) => {});
    runCode({projectId: 'prj_TEST', serviceOrigin: 'https://assent.example.workers.dev', regionDefaults: [], waitForUpdate: '500', adsDataRedaction: false, urlPassthrough: true});
    assertApi('setDefaultConsentState').wasCalledWith({ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'granted', wait_for_update: 500});
    assertApi('gtagSet').wasCalledWith({ads_data_redaction: false, url_passthrough: true});
- name: Loads the widget and sends each decision as a consent update and a dataLayer event
  code: |-
    const listeners = {};
    const pushed = [];
    let injected;
    mock('injectScript', (url, onSuccess, onFailure) => {
      injected = url;
      onSuccess();
    });
    mock('callInWindow', (path, type, listener) => {
      if (path === 'assent.on') listeners[type] = listener;
      return undefined;
    });
    mock('createQueue', (key) => (item) => pushed.push(item));
    runCode({projectId: 'prj_TEST', serviceOrigin: 'https://assent.example.workers.dev', language: 'fi', regionDefaults: [], waitForUpdate: '500', adsDataRedaction: true, urlPassthrough: false, eventName: 'assent_consent_update'});
    assertThat(injected).isEqualTo('https://assent.example.workers.dev/widget/assent.classic.js?project=prj_TEST&lang=fi');
    assertApi('gtmOnSuccess').wasCalled();
    listeners.change({identityId: 'idn_1', consents: {analytics: true, marketing: false}, consentMode: {analytics_storage: 'granted', ad_storage: 'denied'}});
    assertApi('updateConsentState').wasCalledWith({ad_storage: 'denied', analytics_storage: 'granted'});
    assertThat(pushed).isEqualTo([{event: 'assent_consent_update', assent: {consents: {analytics: true, marketing: false}, consentMode: {ad_storage: 'denied', analytics_storage: 'granted'}}}]);
- name: A returning visitor's stored decision is sent at once
  code: |-
    mock('injectScript', (url, onSuccess, onFailure) => onSuccess());
    mock('callInWindow', (path) => path === 'assent.getConsent' ? {identityId: 'idn_1', consents: {marketing: true}, consentMode: {ad_storage: 'granted'}} : undefined);
    mock('createQueue', (key) => (item) => 0);
    runCode({projectId: 'prj_TEST', serviceOrigin: 'https://assent.example.workers.dev', regionDefaults: [], waitForUpdate: '500'});
    assertApi('updateConsentState').wasCalledWith({ad_storage: 'granted'});
- name: The operator's own domain loads the widget with the permission as published
  code: |-
    let injected;
    mock('injectScript', (url, onSuccess) => { injected = url; onSuccess(); });
    runCode({projectId: 'prj_TEST', serviceOrigin: 'https://consent.shop.example', regionDefaults: [], waitForUpdate: '500'});
    assertThat(injected).isEqualTo('https://consent.shop.example/widget/assent.classic.js?project=prj_TEST');
    assertApi('gtmOnSuccess').wasCalled();
- name: An origin with a path is outside the Injects scripts permission, fails the tag and keeps the defaults
  code: |-
    runCode({projectId: 'prj_TEST', serviceOrigin: 'https://consent.example.com/x.js?', regionDefaults: [], waitForUpdate: '500'});
    assertApi('injectScript').wasNotCalled();
    assertApi('setDefaultConsentState').wasCalled();
    assertApi('gtmOnFailure').wasCalled();
- name: A widget that fails to load fails the tag
  code: |-
    mock('injectScript', (url, onSuccess, onFailure) => onFailure());
    runCode({projectId: 'prj_TEST', serviceOrigin: 'https://assent.example.workers.dev', regionDefaults: [], waitForUpdate: '500'});
    assertApi('updateConsentState').wasNotCalled();
    assertApi('gtmOnFailure').wasCalled();


___NOTES___

Assent (an open-source GDPR consent service) for Google Tag Manager: fire this tag on the Consent
Initialization - All Pages trigger. Documentation: docs/gtm.md in the Assent repository. The sandboxed code is
tested in the repository (test/integrations/gtm-template.test.ts) against a stand-in of Tag Manager's sandbox
that checks each call against the permissions above; the scenarios above run there too.
