import type { MethodRegistry } from '../methods/registry.ts';
/** Every error code the Application API gives, with its status, for the reference. */
export declare const ERROR_CODES: Array<[code: string, status: number, meaning: string]>;
/** Route schema of api.php, for the OpenAPI document (validation is the registry's). */
export declare function apiRouteSchema(
  registry: MethodRegistry,
  maxBytes: number,
): {
  summary: string;
  description: string;
  tags: string[];
  querystring: {
    type: string;
    properties: Record<string, unknown>;
  };
  response: {
    200: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            required: string[];
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {};
            };
          };
        };
      };
    };
    400: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    401: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    403: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    404: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    405: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    413: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    415: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    422: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    429: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
  };
};
export declare const tokenRouteSchema: {
  summary: string;
  description: string;
  tags: string[];
  querystring: {
    type: string;
    required: string[];
    properties: {
      key: {
        type: string;
        description: string;
      };
    };
  };
  response: {
    200: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            required: string[];
            properties: {
              token: {
                type: string;
                description: string;
              };
            };
          };
        };
      };
    };
    400: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    401: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    403: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    429: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
  };
};
/** api.php by POST: the same parameters as a form, and photo.addPhoto's file. */
export declare function apiPostSchema(getSchema: ReturnType<typeof apiRouteSchema>): {
  summary: string;
  consumes: string[];
  body: {
    type: string;
    properties: {
      photo: {
        type: string;
        format: string;
        description: string;
      };
    };
  };
  description: string;
  tags: string[];
  querystring: {
    type: string;
    properties: Record<string, unknown>;
  };
  response: {
    200: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            required: string[];
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {};
            };
          };
        };
      };
    };
    400: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    401: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    403: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    404: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    405: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    413: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    415: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    422: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
    429: {
      description: string;
      content: {
        'application/json': {
          schema: {
            type: string;
            properties: {
              api: {
                type: string;
                required: string[];
                properties: {
                  total: {
                    type: string;
                    description: string;
                  };
                  pages: {
                    type: string;
                    description: string;
                  };
                  current_page: {
                    type: string;
                    description: string;
                  };
                };
              };
              output: {
                type: string;
                properties: {
                  error: {
                    type: string;
                    required: string[];
                    properties: {
                      code: {
                        type: string;
                        enum: string[];
                      };
                      message: {
                        type: string;
                      };
                      parameter: {
                        type: string;
                        description: string;
                      };
                      retry_after: {
                        type: string;
                        description: string;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      };
    };
  };
};
